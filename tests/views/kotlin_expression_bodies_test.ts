import assert from "node:assert/strict";
import { renderCode } from "../../plugins/view_modes/_code.ts";

// A Kotlin function's expression body over lines (`fun test() = runTest { ... }`, a view model's
// `fun save() = viewModelScope.launch { ... }`) is its body: the skeleton kept it whole up to 12
// lines, and longer when it declared a `val` (each listed as a property of the function:
// android/architecture-samples' tests). Written for this test.
Deno.test("a Kotlin function's expression body over lines is elided, its locals no symbols", async () => {
  const text = [
    "class TasksTest {",
    "    @Test",
    "    fun completesTask() = runTest {",
    '        val task = Task(id = "id")',
    "        repository.add(task)",
    "        assertThat(repository.tasks).hasSize(1)",
    "    }",
    "",
    "    fun size() = items.size",
    "",
    "    fun save(task: Task) = viewModelScope.launch {",
    "        repository.save(task)",
    "    }",
    "",
    "    private fun label(type: Type): Int =",
    "        when (type) {",
    "            Type.ALL -> 1",
    "            else -> 2",
    "        }",
    "}",
    "",
    "fun top() = run {",
    "    val a = 1",
    "    a",
    "}",
    "",
  ].join("\n");
  const view = (await renderCode("TasksTest.kt", text))!;
  assert.equal(
    view.text,
    [
      "class TasksTest {",
      "    @Test",
      "    fun completesTask() = ...",
      "",
      "    fun size() = items.size",
      "",
      "    fun save(task: Task) = ...",
      "",
      "    private fun label(type: Type): Int =",
      "        ...",
      "}",
      "",
      "fun top() = ...",
      "",
    ].join("\n"),
  );
  assert.deepEqual(view.symbols.map((s) => `${s.kind} ${s.qualifiedName}`), [
    "class TasksTest",
    "method TasksTest.completesTask",
    "method TasksTest.size",
    "method TasksTest.save",
    "method TasksTest.label",
    "function top",
  ]);
  // A masked view's `def` shows the body as the file has it.
  const full = (await renderCode("TasksTest.kt", text, { mask: { "TasksTest.save": "def" } }))!;
  assert.ok(
    full.text.includes("fun save(task: Task) = viewModelScope.launch {\n        repository.save"),
  );
});
