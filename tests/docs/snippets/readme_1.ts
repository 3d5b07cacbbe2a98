// A ts block of README.md, copied by tests/docs/_snippets.ts: do not edit.
// slop.config.ts
export default {
  files: ["src/**", { path: "src/big_module.ts", view: "summary" }],
  history: "slop/discussion.jsonl",
};
