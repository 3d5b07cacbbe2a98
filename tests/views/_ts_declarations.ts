/**
 * Ground truth for the TypeScript/JavaScript skeleton: the declarations the
 * TypeScript compiler finds outside function bodies, with their names,
 * lines and header text.
 *
 * @module
 */

import ts from "npm:typescript@5.9.3";

/** A declaration the compiler found. */
export interface TsDeclaration {
  /** The name as the file writes it. */
  name: string;
  /** 1-based line of the declaration's first token after its decorators and doc comment. */
  line: number;
  /** The compiler's kind (`MethodDeclaration`, ...). */
  kind: string;
  /** The text from the declaration's start to its body or initializer, whitespace collapsed. */
  header: string;
}

/** Every declaration outside function bodies, in source order. */
export function tsDeclarations(path: string, text: string): TsDeclaration[] {
  const sf = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
  const out: TsDeclaration[] = [];
  const add = (node: ts.Node, name: ts.Node | undefined, stop?: ts.Node | number) => {
    if (!name) return;
    const start = firstToken(node);
    const end = typeof stop === "number" ? stop : stop ? stop.getStart(sf) : node.getEnd();
    out.push({
      name: name.getText(sf),
      line: sf.getLineAndCharacterOfPosition(start).line + 1,
      kind: ts.SyntaxKind[node.kind],
      header: text.slice(start, end).trimEnd().replace(/\s*[=;,]$/, ""),
    });
  };
  // The start after decorators (tree-sitter puts a member's decorators beside it).
  const firstToken = (node: ts.Node): number => {
    const decorators = ts.canHaveDecorators(node) ? ts.getDecorators(node) : undefined;
    if (!decorators?.length) return node.getStart(sf);
    const trivia = /(?:\s|\/\/[^\n]*|\/\*[\s\S]*?\*\/)*/y;
    trivia.lastIndex = decorators[decorators.length - 1].getEnd();
    trivia.exec(text);
    return trivia.lastIndex;
  };
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionDeclaration(node)) add(node, node.name, node.body);
    else if (ts.isClassDeclaration(node)) add(node, node.name, node.members.pos - 1);
    else if (ts.isMethodDeclaration(node) || ts.isGetAccessor(node) || ts.isSetAccessor(node)) {
      add(node, node.name, node.body);
    } else if (ts.isConstructorDeclaration(node)) {
      add(
        node,
        node.getChildren(sf).find((c) => c.kind === ts.SyntaxKind.ConstructorKeyword),
        node.body,
      );
    } else if (ts.isPropertyDeclaration(node)) add(node, node.name, node.initializer);
    else if (ts.isMethodSignature(node) || ts.isPropertySignature(node)) {
      if (ts.isInterfaceDeclaration(node.parent)) add(node, node.name);
    } else if (ts.isInterfaceDeclaration(node)) add(node, node.name, node.members.pos - 1);
    else if (ts.isTypeAliasDeclaration(node)) add(node, node.name);
    else if (ts.isEnumDeclaration(node)) add(node, node.name);
    else if (ts.isModuleDeclaration(node)) {
      // `declare global { ... }` names no namespace: what it declares is global.
      if (!(node.flags & ts.NodeFlags.GlobalAugmentation)) add(node, node.name, node.body);
    } else if (ts.isVariableDeclaration(node)) add(node, node.name, node.initializer);
    else if (
      ts.isPropertyAssignment(node) && ts.isIdentifier(node.name) &&
      (ts.isFunctionExpression(node.initializer) || ts.isArrowFunction(node.initializer)) &&
      (ts.isVariableDeclaration(node.parent.parent) || ts.isBinaryExpression(node.parent.parent))
    ) {
      // `key: function () {}`, `key: () => {}` in an object a declaration or assignment holds.
      add(node, node.name, node.initializer.body);
    } else if (ts.isExpressionStatement(node) && ts.isSourceFile(node.parent)) {
      // A top-level assignment to a path of names (`exports.foo = ...`, `A.prototype.b = ...`).
      const e = node.expression;
      if (
        ts.isBinaryExpression(e) && e.operatorToken.kind === ts.SyntaxKind.EqualsToken &&
        ts.isPropertyAccessExpression(e.left) &&
        /^[\p{L}_$][\p{L}\p{N}_$]*(?:\.[\p{L}_$][\p{L}\p{N}_$]*)+$/u.test(e.left.getText(sf))
      ) {
        const right = e.right;
        const stop = ts.isClassExpression(right)
          ? right.members.pos - 1
          : (ts.isFunctionExpression(right) || ts.isArrowFunction(right)) &&
              right.body && ts.isBlock(right.body)
          ? right.body
          : right;
        add(e, e.left, stop);
      }
    }
    // Declarations inside function bodies are not part of a file's skeleton.
    if (ts.isFunctionLike(node)) return;
    // Nor statements other than declarations (loops, conditions): the skeleton drops them.
    if (ts.isStatement(node) && !isDeclarationStatement(node)) return;
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}

function isDeclarationStatement(node: ts.Node): boolean {
  return ts.isVariableStatement(node) || ts.isFunctionDeclaration(node) ||
    ts.isClassDeclaration(node) || ts.isInterfaceDeclaration(node) ||
    ts.isTypeAliasDeclaration(node) || ts.isEnumDeclaration(node) || ts.isModuleDeclaration(node) ||
    ts.isExportAssignment(node) || ts.isExpressionStatement(node) || ts.isModuleBlock(node);
}
