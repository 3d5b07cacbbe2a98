import assert from "node:assert/strict";
import { renderCode } from "../../plugins/view_modes/_code.ts";

// A C# program's top-level statements (ASP.NET's minimal API: a `Program.cs` of
// `var app = builder.Build();`, `app.MapGet(...)`) are how it is set up; the code views kept its
// `using`s alone (davidfowl/TodoApi: 4 `Program.cs` files with no line but those). Written for
// these tests.
Deno.test("a C# program's top-level setup stays, lambdas' bodies elided", async () => {
  const text = [
    "using Scalar.AspNetCore;",
    "",
    "var builder = WebApplication.CreateBuilder(args);",
    "builder.Services.AddHttpLogging(o =>",
    "{",
    "    o.CombineLogs = true;",
    "});",
    "var app = builder.Build();",
    "if (app.Environment.IsDevelopment())",
    "{",
    "    app.MapScalarApiReference();",
    "}",
    'app.MapGet("/", () => Results.Redirect("/scalar/v1"));',
    "app.Run();",
    "",
    "record Todo(int Id, string Title);",
    "",
  ].join("\n");
  const view = (await renderCode("Program.cs", text))!;
  assert.equal(
    view.text,
    [
      "using Scalar.AspNetCore;",
      "",
      "var builder = WebApplication.CreateBuilder(args);",
      "builder.Services.AddHttpLogging(o =>",
      "{ ... });",
      "var app = builder.Build();",
      "if (app.Environment.IsDevelopment())",
      "{",
      "    app.MapScalarApiReference();",
      "}",
      'app.MapGet("/", () => Results.Redirect("/scalar/v1"));',
      "app.Run();",
      "",
      "record Todo(int Id, string Title);",
      "",
    ].join("\n"),
  );
});

// A program's `if`, loops, `using` and `try` were left out with no marker, and the routes mapped
// inside them with them (review18 left it). Written for this test.
Deno.test("a C# program's branches and loops stay, their blocks read as the program", async () => {
  const text = [
    "var app = builder.Build();",
    "if (app.Environment.IsDevelopment())",
    "{",
    "    app.UseDeveloperExceptionPage();",
    '    app.MapGet("/debug", () => "debug");',
    "}",
    "else",
    "{",
    "    app.UseHsts();",
    "}",
    'foreach (var name in new[] { "a", "b" })',
    "{",
    '    app.MapGet($"/{name}", () => name);',
    "}",
    "using (var scope = app.Services.CreateScope())",
    "{",
    "    scope.ServiceProvider.GetRequiredService<Db>().Database.Migrate();",
    "}",
    "try",
    "{",
    "    app.Run();",
    "}",
    "catch (Exception ex)",
    "{",
    "    Console.WriteLine(ex);",
    "}",
    "static class Routes",
    "{",
    "    public static RouteGroupBuilder MapTodos(this IEndpointRouteBuilder routes)",
    "    {",
    '        var group = routes.MapGroup("/todos");',
    "        if (Flags.On)",
    "        {",
    '            group.MapGet("/x", () => 1);',
    "        }",
    "        while (more) { step(); }",
    "        return group;",
    "    }",
    "}",
    "",
  ].join("\n");
  const view = (await renderCode("Program.cs", text))!;
  assert.equal(
    view.text,
    [
      "var app = builder.Build();",
      "if (app.Environment.IsDevelopment())",
      "{",
      "    app.UseDeveloperExceptionPage();",
      '    app.MapGet("/debug", () => "debug");',
      "}",
      "else",
      "{",
      "    app.UseHsts();",
      "}",
      'foreach (var name in new[] { "a", "b" })',
      "{",
      '    app.MapGet($"/{name}", () => name);',
      "}",
      "using (var scope = app.Services.CreateScope())",
      "{",
      "    scope.ServiceProvider.GetRequiredService<Db>().Database.Migrate();",
      "}",
      "try",
      "{",
      "    app.Run();",
      "}",
      "catch (Exception ex)",
      "{ ... }",
      "static class Routes",
      "{",
      "    public static RouteGroupBuilder MapTodos(this IEndpointRouteBuilder routes)",
      "    {",
      '        var group = routes.MapGroup("/todos");',
      "        if (Flags.On)",
      "        {",
      '            group.MapGet("/x", () => 1);',
      "        }",
      "        while (more) { step(); }",
      "    }",
      "}",
      "",
    ].join("\n"),
  );
  assert.deepEqual(view.symbols.map((s) => [s.qualifiedName, s.kind]), [
    ["get /debug", "route"],
    ["Routes", "class"],
    ["Routes.MapTodos", "method"],
    ["Routes.MapTodos.group /todos", "group"],
    ["Routes.MapTodos.get /x", "route"],
  ]);
});

Deno.test("a C# program's top-level output is left out, as Ruby's puts and console.log are", async () => {
  const text = [
    "var lines = File.ReadAllLines(args[0]);",
    'Console.WriteLine("Starting");',
    "System.Console.Write(lines.Length);",
    "Console.Error.WriteLine(lines[0]);",
    "Debug.WriteLine(1);",
    "var app = builder.Build();",
    "",
  ].join("\n");
  assert.equal(
    (await renderCode("Program.cs", text))!.text,
    "var lines = File.ReadAllLines(args[0]);\nvar app = builder.Build();\n",
  );
});

// ASP.NET's minimal API routes were kept but no symbols: an outline or a mask had no name for
// them, as PHP's routes have (`get /profile`).
Deno.test("a C# program's routes and groups are symbols named by verb and pattern", async () => {
  const text = [
    "var app = builder.Build();",
    'app.MapGet("/", () => "Hello").WithName("home");',
    'var todos = app.MapGroup("/todos");',
    'todos.MapPost(@"/{id}", (int id) =>',
    "{",
    "    return id;",
    "});",
    "app.Run();",
    "",
  ].join("\n");
  const view = (await renderCode("Program.cs", text))!;
  assert.deepEqual(view.symbols.map((s) => [s.name, s.kind, s.signature]), [
    ["get /", "route", 'app.MapGet("/", () => "Hello").WithName("home")'],
    ["group /todos", "group", 'var todos = app.MapGroup("/todos")'],
    ["post /{id}", "route", 'todos.MapPost(@"/{id}", (int id) =>'],
  ]);
  const masked = await renderCode("Program.cs", text, { mask: { "get /": "hide" } });
  assert.equal(masked!.text.split("\n")[1], 'var todos = app.MapGroup("/todos");');
});

// ASP.NET's usual layout maps an API's routes in extension methods (`MapTodos(this
// IEndpointRouteBuilder routes) { var group = routes.MapGroup("/todos"); group.MapGet(...); }`):
// the method's body was elided, so no route was shown or listed (TodoApi's and eShopOnWeb's).
Deno.test("a method that maps routes keeps them, each a public symbol; another keeps its body elided", async () => {
  const text = [
    "public static class TodoApi",
    "{",
    "    public static RouteGroupBuilder MapTodos(this IEndpointRouteBuilder routes)",
    "    {",
    '        var group = routes.MapGroup("/todos");',
    '        group.MapGet("/", async (TodoDbContext db) =>',
    "        {",
    "            return await db.Todos.ToListAsync();",
    "        });",
    '        Console.WriteLine("mapped");',
    "        return group;",
    "    }",
    "",
    "    public static int Next(int a)",
    "    {",
    "        var b = a + 1;",
    "        return b;",
    "    }",
    "}",
    "",
  ].join("\n");
  const view = (await renderCode("Todo.Api/TodoApi.cs", text))!;
  assert.equal(
    view.text,
    [
      "public static class TodoApi",
      "{",
      "    public static RouteGroupBuilder MapTodos(this IEndpointRouteBuilder routes)",
      "    {",
      '        var group = routes.MapGroup("/todos");',
      '        group.MapGet("/", async (TodoDbContext db) =>',
      "        { ... });",
      "    }",
      "",
      "    public static int Next(int a)",
      "    { ... }",
      "}",
      "",
    ].join("\n"),
  );
  assert.deepEqual(view.symbols.map((s) => [s.qualifiedName, s.kind, s.public]), [
    ["TodoApi", "class", true],
    ["TodoApi.MapTodos", "method", true],
    ["TodoApi.MapTodos.group /todos", "group", true],
    ["TodoApi.MapTodos.get /", "route", true],
    ["TodoApi.Next", "method", true],
  ]);
});

// A local function is a definition, not code: a program's handlers and helpers
// (`static async Task<IResult> GetTodo(int id, TodoDb db) { ... }` after `app.MapGet(..., GetTodo)`,
// eShopOnWeb's BlazorAdmin `static async Task ClearLocalStorageCache(...)`) and a route method's
// were dropped with the branches around them: the call stood with nothing it named. Written for
// this test.
Deno.test("a C# program's and a route method's local functions stay, their bodies elided", async () => {
  const text = [
    "var app = WebApplication.CreateBuilder(args).Build();",
    'app.MapGet("/todos/{id}", GetTodo);',
    "app.Run();",
    "",
    "static async Task<IResult> GetTodo(int id, TodoDb db)",
    "{",
    "    return await db.Todos.FindAsync(id) is Todo t ? TypedResults.Ok(t) : TypedResults.NotFound();",
    "}",
    "",
    "public static class Routes",
    "{",
    "    public static WebApplication MapMore(this WebApplication app)",
    "    {",
    '        app.MapGet("/health", Health);',
    "        string Health() => Status(app);",
    "        int Count(int y)",
    "        {",
    "            return y + 1;",
    "        }",
    "        return app;",
    "    }",
    "}",
    "",
  ].join("\n");
  const view = (await renderCode("Program.cs", text))!;
  assert.equal(
    view.text,
    [
      "var app = WebApplication.CreateBuilder(args).Build();",
      'app.MapGet("/todos/{id}", GetTodo);',
      "app.Run();",
      "",
      "static async Task<IResult> GetTodo(int id, TodoDb db)",
      "{ ... }",
      "",
      "public static class Routes",
      "{",
      "    public static WebApplication MapMore(this WebApplication app)",
      "    {",
      '        app.MapGet("/health", Health);',
      "        string Health() => Status(app);",
      "        int Count(int y)",
      "        { ... }",
      "    }",
      "}",
      "",
    ].join("\n"),
  );
  // Their own, not an API's: no local function is public.
  assert.deepEqual(view.symbols.map((s) => [s.qualifiedName, s.kind, s.public]), [
    ["get /todos/{id}", "route", true],
    ["GetTodo", "function", false],
    ["Routes", "class", true],
    ["Routes.MapMore", "method", true],
    ["Routes.MapMore.get /health", "route", true],
    ["Routes.MapMore.Health", "function", false],
    ["Routes.MapMore.Count", "function", false],
  ]);
});

// Each `else if` nests in the branch before it: a program's chain of 400 branches nested past
// the depth the view follows, and the file had no view (review20). A chain of more than 48
// branches is left out, as a program's `if` was before its blocks were read. Written for this
// test.
Deno.test("a C# program's long else-if chain is left out, the rest of the program kept", async () => {
  const chain = (n: number) =>
    Array.from(
      { length: n },
      (_, i) => `${i ? "else " : ""}if (a == ${i}) { app.MapGet("/${i}", () => ${i}); }`,
    );
  const text = (n: number) =>
    ["var app = builder.Build();", ...chain(n), "app.Run();", ""].join("\n");
  const long = (await renderCode("Program.cs", text(400)))!;
  assert.equal(long.text, "var app = builder.Build();\napp.Run();\n");
  const short = (await renderCode("Program.cs", text(48)))!;
  assert.equal(short.symbols.length, 48);
  assert.equal(short.symbols[47].name, "get /47");
});

// A program's `switch` was left out with no marker, and the routes its sections map with it
// (hunt25). It stays with its head and labels, its sections' statements read as the program's are
// (output left out; `break` and `return` kept, so that no section seems to fall through). Written
// for this test.
Deno.test("a C# program's switch stays, its sections read as the program", async () => {
  const text = [
    "var app = builder.Build();",
    "switch (app.Environment.EnvironmentName)",
    "{",
    '    case "Development":',
    "        app.UseDeveloperExceptionPage();",
    '        app.MapGet("/debug", () => "debug");',
    '        Console.WriteLine("dev");',
    "        break;",
    '    case "Staging":',
    "    {",
    "        app.UseHsts();",
    "        break;",
    "    }",
    "    default:",
    "        if (args.Length > 0)",
    "        {",
    '            app.MapGet("/args", () => args);',
    "        }",
    "        return;",
    "}",
    "app.Run();",
    "",
  ].join("\n");
  const view = (await renderCode("Program.cs", text))!;
  assert.equal(
    view.text,
    [
      "var app = builder.Build();",
      "switch (app.Environment.EnvironmentName)",
      "{",
      '    case "Development":',
      "        app.UseDeveloperExceptionPage();",
      '        app.MapGet("/debug", () => "debug");',
      "        break;",
      '    case "Staging":',
      "    {",
      "        app.UseHsts();",
      "        break;",
      "    }",
      "    default:",
      "        if (args.Length > 0)",
      "        {",
      '            app.MapGet("/args", () => args);',
      "        }",
      "        return;",
      "}",
      "app.Run();",
      "",
    ].join("\n"),
  );
  assert.deepEqual(view.symbols.map((s) => `${s.kind} ${s.qualifiedName}`), [
    "route get /debug",
    "route get /args",
  ]);
});
