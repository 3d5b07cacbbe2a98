// A ts block of docs/plugins.md, copied by tests/docs/_snippets.ts: do not edit.
globalThis.addEventListener("unhandledrejection", (event) => {
  event.preventDefault(); // the build goes on; report it as the program sees fit
  console.error(`A plugin left an error: ${event.reason}`);
});
