import assert from "node:assert/strict";
import { renderCode } from "../../plugins/view_modes/_code.ts";
import { outlineText } from "../../plugins/view_modes/outline.ts";

/** The outline of a file. */
async function outline(path: string, lines: string[], comment = "//"): Promise<string> {
  const view = (await renderCode(path, lines.join("\n") + "\n"))!;
  return outlineText(view.symbols, comment);
}

Deno.test("an outline keeps a Python definition's decorators before its signature: routes, dataclasses", async () => {
  assert.equal(
    await outline("routes.py", [
      "@dataclass(frozen=True)",
      "class Point:",
      "    x: int",
      "",
      '@router.get("/{id}", response_model=ItemPublic)',
      "def read_item(id: int) -> Any:",
      "    return 1",
      "",
      `@pytest.mark.parametrize("value", [${Array.from({ length: 30 }, (_, i) => i).join(", ")}])`,
      "def test_value(value):",
      "    pass",
    ], "#"),
    [
      "@dataclass(frozen=True) class Point  # class",
      "  x: int  # attribute",
      '@router.get("/{id}", response_model=ItemPublic) def read_item(id: int) -> Any  # function',
      "@pytest.mark.parametrize(...) def test_value(value)  # function",
      "",
    ].join("\n"),
  );
});

Deno.test("an outline keeps a TypeScript class's and member's decorators before its signature (NestJS)", async () => {
  assert.equal(
    await outline("cats.controller.ts", [
      "@Controller('cats')",
      "export class CatsController {",
      "  constructor(private readonly cats: CatsService) {}",
      "",
      "  @Post()",
      "  @HttpCode(204)",
      "  create(@Body() dto: CreateCatDto) {",
      "    return 1;",
      "  }",
      "",
      "  @Get(':id')",
      "  findOne(@Param('id') id: string): Promise<Cat> {",
      "    return this.cats.findOne(id);",
      "  }",
      "}",
    ]),
    [
      "@Controller('cats') class CatsController  // class",
      "  constructor(private readonly cats: CatsService)  // method",
      "  @Post() @HttpCode(204) create(@Body() dto: CreateCatDto)  // method",
      "  @Get(':id') findOne(@Param('id') id: string): Promise<Cat>  // method",
      "",
    ].join("\n"),
  );
});

Deno.test("a Java outline lists what has package access (no access word), not what is private", async () => {
  assert.equal(
    await outline("OwnerController.java", [
      "@Controller",
      "class OwnerController {",
      "  private final OwnerRepository owners;",
      "",
      '  @GetMapping("/owners/new")',
      "  String initCreationForm() {",
      '    return "form";',
      "  }",
      "",
      "  private String helper() {",
      '    return "";',
      "  }",
      "}",
    ]),
    [
      "@Controller class OwnerController  // class",
      '  @GetMapping("/owners/new") String initCreationForm()  // method',
      "",
    ].join("\n"),
  );
});
