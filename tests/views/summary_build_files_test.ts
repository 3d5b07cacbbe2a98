import assert from "node:assert/strict";
import { summarize } from "../../plugins/view_modes/summary.ts";
import { languageOf } from "../../pipeline/transform.ts";

// Kinds a summary showed as text (their first lines) though their names are read by a line scan:
// LaTeX documents, classes and packages, BibTeX databases, Makefiles, Dockerfiles and Blade
// templates (read as PHP: their own words were not). Written for
// these tests.
const CASES: Array<[string, string, string]> = [
  [
    "Chapter1/chapter1.tex",
    [
      "%!TEX root = ../thesis.tex",
      "% A comment that is no section: \\section{Commented}",
      "\\chapter{Getting \\emph{Started}}",
      "\\label{ch:start}",
      "\\section[Short]{A Longer Title}",
      "Text with \\section inline is no title.",
      "\\subsection*{Unnumbered}",
      "\\input{Chapter1/figures}",
      "\\include{Chapter1/tables}",
    ].join("\n") + "\n",
    "**LaTeX**, 9 lines\n- sections: `Getting \\emph{Started}`, `A Longer Title`, `Unnumbered`\n- inputs: `Chapter1/figures`, `Chapter1/tables`",
  ],
  [
    "thesis.tex",
    [
      "\\documentclass[a4paper,12pt]{PhDThesisPSnPDF}",
      "\\usepackage[utf8]{inputenc}",
      "\\usepackage{amsmath,amssymb}",
      "\\newcommand{\\thesisTitle}{A Title}",
      "\\renewcommand*\\vec[1]{\\mathbf{#1}}",
      "\\def\\figpath{Figs}",
      "\\newenvironment{proofsketch}{}{}",
      "\\begin{document}",
      "\\end{document}",
    ].join("\n") + "\n",
    "**LaTeX**, 9 lines\n- classes: `PhDThesisPSnPDF`\n- packages: `inputenc`, `amsmath,amssymb`\n- commands: `\\thesisTitle`, `\\vec`, `\\figpath`\n- environments: `proofsketch`",
  ],
  [
    "sty/thesis.cls",
    [
      "\\NeedsTeXFormat{LaTeX2e}",
      "\\ProvidesClass{PhDThesisPSnPDF}[2024/01/01 v1]",
      "\\DeclareOption{print}{\\printtrue}",
      "\\LoadClass[twoside]{book}",
      "\\RequirePackage{geometry}",
      "\\DeclareRobustCommand{\\degreetitle}[1]{\\def\\@degreetitle{#1}}",
    ].join("\n") + "\n",
    "**LaTeX class**, 6 lines\n- provides: `PhDThesisPSnPDF`\n- classes: `book`\n- packages: `geometry`\n- commands: `\\degreetitle`\n- options: `print`",
  ],
  [
    "References/references.bib",
    [
      "% Encoding: UTF-8",
      '@string{jfm = "Journal of Fluid Mechanics"}',
      "@article{Smith2020,",
      "  title = {A paper},",
      "}",
      "@Book{ knuth:tex ,",
      "  title = {The TeXbook},",
      "}",
      "@comment{ignored}",
    ].join("\n") + "\n",
    "**BibTeX**, 9 lines\n- entries: `Smith2020`, `knuth:tex`",
  ],
  [
    "Makefile",
    [
      "# Build the operator",
      "include common.mk",
      "-include $(wildcard local/*.mk)",
      "BINARY ?= operator",
      "export GOFLAGS := -mod=vendor",
      "VERSION ::= $(shell git describe)",
      "URL = http://example.com/a:b",
      ".PHONY: all test",
      "all: build",
      "build docker: $(SOURCES)",
      "\tgo build -o $(BINARY) ./cmd",
      "%.o:: %.c",
      "\tcc -c $<",
      "SED_SCRIPT = sed \\",
      "-e 's/a:b/c/' \\",
      "NOT_A_VARIABLE=1",
    ].join("\n") + "\n",
    "**Makefile**, 16 lines\n- targets: `all`, `build docker`, `%.o`\n- variables: `BINARY`, `GOFLAGS`, `VERSION`, `URL`, `SED_SCRIPT`\n- includes: `common.mk`, `$(wildcard local/*.mk)`",
  ],
  [
    "docker/DebugDockerfile",
    [
      "# syntax=docker/dockerfile:1",
      "ARG BASE_IMAGE=golang:1.22",
      "FROM --platform=$BUILDPLATFORM ${BASE_IMAGE} AS builder",
      "RUN go build ./...",
      "from alpine:3.19",
      "COPY --from=builder /out /bin",
      "EXPOSE 8080 9090/udp",
      'ENTRYPOINT ["/bin/operator"]',
    ].join("\n") + "\n",
    '**Dockerfile**, 8 lines\n- images: `${BASE_IMAGE}`, `alpine:3.19`\n- stages: `builder`\n- args: `BASE_IMAGE`\n- ports: `8080 9090/udp`\n- commands: `ENTRYPOINT ["/bin/operator"]`',
  ],
  [
    "resources/views/profile/edit.blade.php",
    [
      "<?php",
      "use Livewire\\Volt\\Component;",
      "new class extends Component {",
      "    public function save(): void {}",
      "}; ?>",
      "@extends('layouts.app')",
      "@section('content')",
      '    <x-app-layout><x-input-label for="name" :value="__(\'Name\')" />',
      "    @include('profile.partials.update-password-form', ['user' => $user])",
      "    <livewire:profile.delete-user-form />",
      '    @yield("footer")',
      "@endsection",
    ].join("\n") + "\n",
    "**Blade template**, 12 lines\n- functions: `save`\n- uses: `Livewire\\Volt\\Component`\n- sections: `content`, `footer`\n- includes: `layouts.app`, `profile.partials.update-password-form`\n- components: `x-app-layout`, `x-input-label`, `livewire:profile.delete-user-form`",
  ],
];

Deno.test("LaTeX, BibTeX, Makefile, Dockerfile and Blade summaries list their names", () => {
  for (const [path, text, want] of CASES) assert.equal(summarize(path, text), want, path);
  // The same kinds by their other names.
  for (const path of ["GNUmakefile", "build/rules.mk", "makefile"]) {
    assert.match(summarize(path, "all: a\n"), /^\*\*Makefile\*\*/, path);
  }
  for (const path of ["Dockerfile", "Dockerfile.dev", "Containerfile", "ui/app.dockerfile"]) {
    assert.match(summarize(path, "FROM a\n"), /^\*\*Dockerfile\*\*/, path);
  }
  assert.match(summarize("sty/a.sty", "\\ProvidesPackage{a}\n"), /^\*\*LaTeX package\*\*/);
});

Deno.test("LaTeX, BibTeX, Makefile and Dockerfile fences are labelled for their language", () => {
  const want: Record<string, string> = {
    "a.tex": "tex",
    "a.sty": "tex",
    "a.bib": "bibtex",
    "Makefile": "makefile",
    "sub/GNUmakefile": "makefile",
    "rules.mk": "makefile",
    "Dockerfile": "dockerfile",
    "docker/Dockerfile.dev": "dockerfile",
    "DebugDockerfile": "dockerfile",
  };
  for (const [path, label] of Object.entries(want)) assert.equal(languageOf(path), label, path);
});

// A Swift package manifest is Swift: its summary listed `import PackageDescription` alone
// (vapor's `Package.swift`: 22 dependencies, 8 targets), not what it ships, builds and needs.
Deno.test("a Swift package manifest's summary lists its products, targets and dependencies", () => {
  const text = [
    "// swift-tools-version:6.0",
    "import PackageDescription",
    "",
    "let package = Package(",
    '    name: "vapor",',
    "    products: [",
    '        .library(name: "Vapor", targets: ["Vapor"]),',
    "    ],",
    "    dependencies: [",
    '        .package(url: "https://github.com/apple/swift-nio.git", from: "2.0.0"),',
    '//        .package(url: "https://github.com/vapor/websocket-kit.git", from: "2.0.0"),',
    '        .package(path: "../routing-kit"),',
    "    ],",
    "    targets: [.target(",
    '        name: "Vapor",',
    '        dependencies: [.product(name: "NIO", package: "swift-nio")]',
    "    ),",
    '    .testTarget(name: "VaporTests", dependencies: ["Vapor"])]',
    ")",
    "",
  ].join("\n");
  const summary = summarize("Package.swift", text);
  assert.match(summary, /^- products: `Vapor`$/m);
  assert.match(summary, /^- targets: `Vapor`, `VaporTests`$/m);
  assert.match(summary, /^- dependencies: `swift-nio`, `routing-kit`$/m);
});
