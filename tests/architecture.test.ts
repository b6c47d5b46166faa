/**
 * The layout rules of ARCHITECTURE.md, checked on the source with the TypeScript compiler API:
 * no function in src/ or shim/ over 60 lines, no `node:` in src/, npm packages only through the
 * deps files, no imports between the services, one error class, the charging adapters import
 * one face of their service, adapters named for their service, tests/shim/ mirroring shim/; and
 * no file of the repository refers to a path outside it. Each rule is first run on a small
 * fixture that breaks it, so a checker that can no longer fail fails here.
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { builtinModules } from "node:module";
import { basename, dirname, join, normalize } from "node:path";
import { test } from "node:test";
import ts from "typescript";

const MAX_FUNCTION_LINES = 60;

/** Where npm packages may enter (deps.ts, its lazily or Node-only loaded siblings, and the map page's browser one). */
const DEPS_FILES = new Set(["deps.ts", "deps-html.ts", "deps-mcp-server.ts", "deps-node.ts", "deps-map.ts", "deps-browser.ts"]);
const SERVICES = ["src/seo/", "src/charging/"] as const;
const BUILTIN = new Set(builtinModules);
/** The one error class, in the registry's module. */
const ERROR_CLASS = { file: "src/shared/errors.ts", name: "ApiError" };
const BUILTIN_ERRORS = new Set(["Error", "TypeError", "RangeError", "SyntaxError", "ReferenceError", "EvalError", "URIError", "AggregateError", "DOMException", "ApiError"]);

interface Source {
  /** Repository-relative, with forward slashes. */
  file: string;
  sf: ts.SourceFile;
}

const parse = (file: string, text: string): Source => ({ file, sf: ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true) });

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".ts") && !f.endsWith(".d.ts"))
    .map((f) => join(dir, f).replaceAll("\\", "/"))
    .sort();
}

const SOURCES = [...tsFiles("src"), ...tsFiles("shim")].map((file) => parse(file, readFileSync(file, "utf8")));

function visit(node: ts.Node, each: (node: ts.Node) => void): void {
  each(node);
  ts.forEachChild(node, (child) => visit(child, each));
}

function nameOf(node: ts.FunctionLikeDeclaration): string {
  if (node.name) return node.name.getText();
  const parent = node.parent;
  if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)) {
    return parent.name.getText();
  }
  return "<anonymous>";
}

/** Every function with a body: "file name" and its length in lines. */
function functionLengths({ file, sf }: Source): { key: string; at: number; lines: number }[] {
  const out: { key: string; at: number; lines: number }[] = [];
  visit(sf, (node) => {
    if (!ts.isFunctionLike(node) || !("body" in node) || !node.body) return;
    const start = sf.getLineAndCharacterOfPosition(node.getStart()).line;
    const end = sf.getLineAndCharacterOfPosition(node.getEnd()).line;
    out.push({ key: `${file} ${nameOf(node as ts.FunctionLikeDeclaration)}`, at: start + 1, lines: end - start + 1 });
  });
  return out;
}

function longFunctions(source: Source): string[] {
  return functionLengths(source)
    .filter((f) => f.lines > MAX_FUNCTION_LINES)
    .map((f) => `${f.key} (line ${f.at}): ${f.lines} lines`);
}

/** Every module a file names: static imports and re-exports (types too), `import()`, `require()`. */
function specifiersOf({ sf }: Source): string[] {
  const out: string[] = [];
  visit(sf, (node) => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      out.push(node.moduleSpecifier.text);
    } else if (ts.isCallExpression(node) && node.arguments.length > 0 && ts.isStringLiteralLike(node.arguments[0] as ts.Expression)) {
      const callee = node.expression;
      if (callee.kind === ts.SyntaxKind.ImportKeyword || (ts.isIdentifier(callee) && callee.text === "require")) {
        out.push((node.arguments[0] as ts.StringLiteralLike).text);
      }
    }
  });
  return out;
}

const isRelative = (spec: string) => spec.startsWith(".") || spec.startsWith("/");
const isNodeBuiltin = (spec: string) => spec.startsWith("node:") || BUILTIN.has(spec.split("/")[0] as string);
/** Repository-relative path of a relative specifier. */
const target = (file: string, spec: string) => normalize(join(dirname(file), spec)).replaceAll("\\", "/");

function nodeImportsInSrc(source: Source): string[] {
  if (!source.file.startsWith("src/")) return [];
  return specifiersOf(source).filter(isNodeBuiltin).map((spec) => `${source.file} imports ${spec}`);
}

function npmOutsideDeps(source: Source): string[] {
  if (DEPS_FILES.has(source.file)) return [];
  return specifiersOf(source)
    .filter((spec) => !isRelative(spec) && !isNodeBuiltin(spec))
    .map((spec) => `${source.file} imports the package ${spec} (only deps.ts, deps-html.ts, deps-mcp-server.ts, deps-node.ts, deps-map.ts and deps-browser.ts may)`);
}

function crossServiceImports(source: Source): string[] {
  const own = SERVICES.find((s) => source.file.startsWith(s));
  const others = own ? SERVICES.filter((s) => s !== own) : SERVICES.filter(() => source.file.startsWith("src/shared/"));
  return specifiersOf(source)
    .filter(isRelative)
    .map((spec) => [spec, target(source.file, spec)] as const)
    .filter(([, path]) => others.some((s) => path.startsWith(s)))
    .map(([spec]) => `${source.file} imports ${spec}`);
}

function errorClasses({ file, sf }: Source): string[] {
  const out: string[] = [];
  visit(sf, (node) => {
    if (!ts.isClassDeclaration(node) && !ts.isClassExpression(node)) return;
    const base = node.heritageClauses?.find((h) => h.token === ts.SyntaxKind.ExtendsKeyword)?.types[0]?.expression.getText();
    const name = node.name?.text ?? "<anonymous>";
    if (base === undefined || !BUILTIN_ERRORS.has(base)) return;
    if (file === ERROR_CLASS.file && name === ERROR_CLASS.name && base === "Error") return;
    out.push(`${file}: class ${name} extends ${base}`);
  });
  return out;
}

/** The charging adapters reach src/ only through the service's public entry. */
function chargingAdapterFace(source: Source): string[] {
  const adapter = /^shim\/(node\/charging\/[^/]+|workers\/charging-worker|embedded\/charging-snapshot)\.ts$/;
  if (!adapter.test(source.file)) return [];
  return specifiersOf(source)
    .filter(isRelative)
    .map((spec) => [spec, target(source.file, spec)] as const)
    .filter(([, path]) => path.startsWith("src/") && path !== "src/charging/mod.ts")
    .map(([spec]) => `${source.file} imports ${spec} (use src/charging/mod.ts)`);
}

const SERVICE_NAMES = ["seo", "charging"] as const;

/**
 * The service a path belongs to: src/<service>/…, or an adapter named for it,
 * shim/<runtime>/<service>/… or shim/<runtime>/<service>-….ts. Anything else serves both.
 */
function serviceOf(path: string): string | undefined {
  const at = /^src\/([^/]+)\//.exec(path)?.[1] ?? /^shim\/[^/]+\/([^/]+?)(?:\/|-[^/]*\.ts$)/.exec(path)?.[1];
  return SERVICE_NAMES.find((service) => service === at);
}

/**
 * Adapters are named for their service: a shim/ module that reaches into one service sits in
 * that service's folder (or carries its name); it reaches no other service; and inside the
 * service's folder, names carry no service prefix.
 */
function adaptersNamedForService(source: Source): string[] {
  if (!source.file.startsWith("shim/")) return [];
  const own = serviceOf(source.file);
  const folder = /^shim\/[^/]+\/([^/]+)\/([^/]+)$/.exec(source.file);
  const prefixed = folder && folder[1] === own && folder[2]?.startsWith(`${own}-`) ? [`${source.file}: inside ${own}/, drop the ${own}- prefix`] : [];
  const reached = specifiersOf(source)
    .filter(isRelative)
    .map((spec) => [spec, serviceOf(target(source.file, spec))] as const)
    .filter(([, service]) => service !== undefined && service !== own)
    .map(([spec, service]) =>
      own ? `${source.file} (${own}) imports ${spec} (${service})` : `${source.file} imports ${spec}: a ${service} adapter, move it under a ${service}/ folder`,
    );
  return [...prefixed, ...reached];
}

/** The one request pipeline: the guard steps are run by src/shared/http/pipeline.ts only. */
const PIPELINE = "src/shared/http/pipeline.ts";
const GUARD_STEP_HOMES = new Set([PIPELINE, "src/shared/http/api-key.ts", "src/shared/http/body-limit.ts", "src/shared/http/client-ip.ts", "src/shared/http/cors.ts"]);
function onePipeline({ file, sf }: Source): string[] {
  if (GUARD_STEP_HOMES.has(file)) return [];
  const steps = [...sf.text.matchAll(/\b(withBodyCap|createKeyGate|clientKey)\(|\.(preflight)\(/g)].map((m) => m[1] ?? m[2]);
  return steps.map((step) => `${file} runs the guard step ${step} itself (declare the policy, ${PIPELINE} runs it)`);
}

/** The one OpenAPI builder: documents are assembled by src/shared/http/openapi.ts only. */
const OPENAPI_BUILDER = "src/shared/http/openapi.ts";
function oneOpenApiBuilder({ file, sf }: Source): string[] {
  if (file === OPENAPI_BUILDER) return [];
  return /\bopenApiDocument\(|\bopenapi:\s*["']3\./.test(sf.text) ? [`${file} builds an OpenAPI document (use serviceOpenApi of ${OPENAPI_BUILDER})`] : [];
}

/** The one service kernel: a service is its options and its operation rows, made a handler by src/shared/service.ts. */
const KERNEL = "src/shared/service.ts";
function oneServiceKernel({ file, sf }: Source): string[] {
  if (file === KERNEL || file === PIPELINE) return [];
  return /\bcreatePipeline\(/.test(sf.text) ? [`${file} assembles its own pipeline (pass its rows and policy to createService of ${KERNEL})`] : [];
}

const RULES = { longFunctions, nodeImportsInSrc, npmOutsideDeps, crossServiceImports, errorClasses, chargingAdapterFace, adaptersNamedForService, onePipeline, oneOpenApiBuilder, oneServiceKernel };

/** A function of `lines` lines. */
const fnOf = (name: string, lines: number) => `function ${name}() {\n${"  work();\n".repeat(lines - 2)}}\n`;
const FIXTURES: Record<keyof typeof RULES, [file: string, text: string, expected: RegExp]> = {
  longFunctions: ["src/charging/x.ts", `${fnOf("fits", MAX_FUNCTION_LINES)}const tooLong = ${fnOf("inner", MAX_FUNCTION_LINES + 1)}`, /src\/charging\/x\.ts inner \(line 61\): 61 lines/],
  nodeImportsInSrc: ["src/shared/x.ts", 'import type { Socket } from "node:net";\nconst fs = await import("fs");', /imports fs$/],
  npmOutsideDeps: ["shim/node/x.ts", 'export { Router } from "itty-router";', /package itty-router/],
  crossServiceImports: ["src/seo/x.ts", 'import type { Store } from "../charging/store.ts";', /src\/seo\/x\.ts imports \.\.\/charging\/store\.ts/],
  errorClasses: ["src/charging/x.ts", "export class NotFound extends ApiError {}\nconst Odd = class extends TypeError {};", /class NotFound extends ApiError/],
  chargingAdapterFace: ["shim/node/charging/app.ts", 'import { createStore } from "../../../src/charging/search/store.ts";', /use src\/charging\/mod\.ts/],
  onePipeline: ["src/seo/handler.ts", "const capped = await withBodyCap(request, 1024);\nconst early = cors.preflight(request);", /seo\/handler\.ts runs the guard step withBodyCap/],
  oneOpenApiBuilder: ["src/charging/openapi.ts", 'export const doc = () => openApiDocument(info, []);', /charging\/openapi\.ts builds an OpenAPI document/],
  oneServiceKernel: ["src/seo/handler.ts", "return createPipeline({ routes, cors, noRoute, unexpected });", /seo\/handler\.ts assembles its own pipeline/],
  adaptersNamedForService: ["shim/node/report-store.ts", 'import type { ReportStore } from "../../src/seo/mod.ts";\nimport "./charging/app.ts";', /report-store\.ts imports \.\.\/\.\.\/src\/seo\/mod\.ts: a seo adapter/],
};

for (const [name, rule] of Object.entries(RULES) as [keyof typeof RULES, (s: Source) => string[]][]) {
  test(`architecture: ${name} catches its fixture and holds for src/ and shim/`, () => {
    const [file, text, expected] = FIXTURES[name];
    const caught = rule(parse(file, text));
    assert.ok(caught.some((line) => expected.test(line)), `the ${name} checker missed its fixture: ${JSON.stringify(caught)}`);
    assert.deepEqual(SOURCES.flatMap(rule), []);
  });
}

test("architecture: the rules pass what they should (a fitting function, deps.ts, a same-service import, ApiError itself)", () => {
  assert.deepEqual(longFunctions(parse("src/x.ts", fnOf("fits", MAX_FUNCTION_LINES))), []);
  assert.deepEqual(npmOutsideDeps(parse("deps.ts", 'export * as v from "valibot";')), []);
  assert.deepEqual(crossServiceImports(parse("src/seo/a/b.ts", 'import "../../shared/errors.ts";\nimport "../c.ts";')), []);
  assert.deepEqual(errorClasses(parse(ERROR_CLASS.file, "export class ApiError extends Error {}")), []);
  assert.deepEqual(chargingAdapterFace(parse("shim/node/charging/cli.ts", 'import { runCli } from "../../../src/charging/mod.ts";\nimport "../serve.ts";')), []);
  assert.deepEqual(adaptersNamedForService(parse("shim/workers/seo-gateway.ts", 'import "../../src/seo/mod.ts";\nimport "../../src/shared/errors.ts";')), []);
  assert.match(adaptersNamedForService(parse("shim/node/seo/page-parser.ts", 'import "../charging/app.ts";')).join(), /\(seo\) imports \.\.\/charging\/app\.ts \(charging\)/);
  assert.match(adaptersNamedForService(parse("shim/node/seo/seo-bin.ts", "")).join(), /drop the seo- prefix/);
});

// deps*.ts re-export only what some file imports from them: a name nothing imports is surface
// the bundles still resolve and a reader still has to account for.

/** The names a module exports by `export { a, b as c }` and `export * as v` (what deps files hold). */
function reExportedNames({ sf }: Source): string[] {
  return sf.statements.filter(ts.isExportDeclaration).flatMap((node) => {
    const clause = node.exportClause;
    if (!clause) return [];
    return ts.isNamespaceExport(clause) ? [clause.name.text] : clause.elements.map((element) => element.name.text);
  });
}

/** The names `source` takes from the module `depsFile`: named imports, and names destructured from its `import()`. */
function namesTakenFrom(source: Source, depsFile: string): string[] {
  const fromDeps = (spec: ts.Expression | undefined) => spec !== undefined && ts.isStringLiteralLike(spec) && isRelative(spec.text) && target(source.file, spec.text) === depsFile;
  const out: string[] = [];
  visit(source.sf, (node) => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && fromDeps(node.moduleSpecifier)) {
      const bindings = ts.isImportDeclaration(node) ? node.importClause?.namedBindings : node.exportClause;
      if (bindings && (ts.isNamedImports(bindings) || ts.isNamedExports(bindings))) out.push(...bindings.elements.map((e) => (e.propertyName ?? e.name).text));
    } else if (ts.isVariableDeclaration(node) && ts.isObjectBindingPattern(node.name) && node.initializer && ts.isAwaitExpression(node.initializer)) {
      const call = node.initializer.expression;
      if (ts.isCallExpression(call) && call.expression.kind === ts.SyntaxKind.ImportKeyword && fromDeps(call.arguments[0])) {
        out.push(...node.name.elements.map((e) => ((e.propertyName ?? e.name) as ts.Identifier).text));
      }
    }
  });
  return out;
}

/** Names a deps file re-exports that no file of `sources` takes from it. */
function unusedDepsExports(deps: Source, sources: readonly Source[]): string[] {
  const taken = new Set(sources.filter((s) => s.file !== deps.file).flatMap((s) => namesTakenFrom(s, deps.file)));
  return reExportedNames(deps)
    .filter((name) => !taken.has(name))
    .map((name) => `${deps.file} exports ${name}, which nothing imports`);
}

test("architecture: deps*.ts export only names some file imports from them", () => {
  const deps = parse("deps-x.ts", 'export * as v from "valibot";\nexport { a, b as c } from "pkg";');
  const users = [parse("src/x.ts", 'import { v, type c } from "../deps-x.ts";'), parse("shim/y.ts", 'const { a } = await import("../deps-x.ts");')];
  assert.deepEqual(unusedDepsExports(deps, users), []);
  assert.deepEqual(unusedDepsExports(deps, users.slice(0, 1)), ["deps-x.ts exports a, which nothing imports"]);
  const everything = [...SOURCES, ...[...tsFiles("scripts"), ...tsFiles("tests")].map((file) => parse(file, readFileSync(file, "utf8")))];
  const depsSources = [...DEPS_FILES].map((file) => parse(file, readFileSync(file, "utf8")));
  assert.deepEqual(depsSources.flatMap((d) => unusedDepsExports(d, [...everything, ...depsSources])), []);
});

// tests/shim/ mirrors shim/: an adapter's tests are found by its path. A test file is named for
// the module it exercises, `<module>.test.ts` or `<module>-<aspect>.test.ts`, in the mirrored folder;
// a packaged file that is not code (the desktop extension's manifest.json, the plugin's plugin.json,
// a skill's SKILL.md) by its name without the extension, in the mirrored folder or one above it.

/** A packaged file's folder and lower-case name without its extension. */
const packagedName = (file: string) => [dirname(file), basename(file).replace(/\.[^.]*$/, "").toLowerCase()] as const;

/** Whether `stem` (a test's mirrored path without `.test.ts`) names a packaged file in its folder or below. */
const namesPackaged = (packaged: string[], stem: string) =>
  packaged.map(packagedName).some(([folder, name]) => name === basename(stem).toLowerCase() && `${folder}/`.startsWith(`${dirname(stem)}/`));

/** Adapter folders without tests, and test files under tests/shim/ that name no module. */
function shimTestGaps(modules: string[], tests: string[], packaged: string[] = []): string[] {
  const known = new Set(modules);
  const folders = new Set(modules.map((file) => dirname(file)));
  const tested = new Set(tests.map((file) => dirname(file).replace(/^tests\//, "")));
  const untested = [...folders].filter((folder) => !tested.has(folder)).map((folder) => `${folder}/ has no tests in tests/${folder}/`);
  const named = (test: string) => {
    const stem = test.replace(/^tests\//, "").replace(/\.test\.ts$/, "");
    const cuts = [...stem.matchAll(/-/g)].map((m) => stem.slice(0, m.index));
    return [stem, ...cuts].some((candidate) => known.has(`${candidate}.ts`)) || namesPackaged(packaged, stem);
  };
  const orphans = tests.filter((test) => !named(test)).map((test) => `${test} names no module of shim/${dirname(test).replace(/^tests\/shim\/?/, "")}`);
  return [...untested, ...orphans];
}

test("architecture: tests/shim/ mirrors shim/, each test file named for its module", () => {
  const caught = shimTestGaps(["shim/node/seo/bin.ts", "shim/node/x/y.ts"], ["tests/shim/node/seo/bin-startup.test.ts", "tests/shim/node/seo/other.test.ts"]);
  assert.deepEqual(caught, ["shim/node/x/ has no tests in tests/shim/node/x/", "tests/shim/node/seo/other.test.ts names no module of shim/node/seo"]);
  assert.deepEqual(shimTestGaps([], ["tests/shim/mcpb/manifest.test.ts", "tests/shim/p/plugin.test.ts"], ["shim/mcpb/manifest.json", "shim/p/.p/plugin.json"]), []);
  assert.deepEqual(shimTestGaps([], ["tests/shim/p/q/plugin.test.ts"], ["shim/p/plugin.json"]), ["tests/shim/p/q/plugin.test.ts names no module of shim/p/q"]);
  const tests = tsFiles("tests/shim").filter((file) => file.endsWith(".test.ts"));
  const packaged = readdirSync("shim", { recursive: true, encoding: "utf8" }).map((f) => join("shim", f).replaceAll("\\", "/")).filter((f) => !f.endsWith(".ts"));
  assert.deepEqual(shimTestGaps(tsFiles("shim"), tests, packaged), []);
});

// The repository stands alone: a clone with nothing beside it must build, test and run. A file
// that reads or links `../somewhere` outside the checkout works only on a machine that has it.

/** A run of `../` and the path characters after it (a `#fragment` or `$` ends the path). */
const PARENT_PATH = /(?<![\w./])(?:\.\.\/)+[^\s"'`()<>[\]{},;|*$#]*/g;
/** `../` strings that are not file paths: a relative URL and a path-traversal input under test. */
const NOT_PATHS: Record<string, string[]> = {
  "tests/seo/fetch/fetch-page.test.ts": ["../b"],
  "tests/shim/node/seo/report-store.test.ts": ["../../etc/passwd"],
};

/**
 * Every `../` path in `text` that, read from `file`'s folder, leaves the repository or names
 * nothing in it. The second catches a script's `resolve(repo, "../data")`: read from the script's
 * own folder it lands on a missing path inside the repository.
 */
function outsideReferences(file: string, text: string, exists: (path: string) => boolean): string[] {
  const out: string[] = [];
  for (const [token] of text.matchAll(PARENT_PATH)) {
    const path = token.replace(/([^.])[.:]+$/, "$1");
    if (NOT_PATHS[file]?.includes(path)) continue;
    const at = target(file, path);
    if (at === ".." || at.startsWith("../")) out.push(`${file}: ${path} leaves the repository`);
    else if (!exists(at)) out.push(`${file}: ${path} names nothing in the repository`);
  }
  return out;
}

/** Tracked and new (not ignored) files, as text; binary files (a NUL byte) and deleted ones are left out. */
function repositoryTexts(): [file: string, text: string][] {
  const listed = execFileSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], { encoding: "utf8" });
  return [...new Set(listed.split("\0").filter(Boolean))].flatMap((file): [string, string][] => {
    if (!existsSync(file)) return [];
    const bytes = readFileSync(file);
    return bytes.includes(0) ? [] : [[file, bytes.toString("utf8")]];
  });
}

test("architecture: no file refers to a path outside the repository", () => {
  const none = () => false;
  assert.match(outsideReferences("tests/charging/data/helpers.ts", 'resolve(import.meta.dirname, "../../../../sibling-folder/data")', none).join(), /leaves the repository/);
  assert.match(outsideReferences("README.md", "(default `../sibling-folder/data`)", none).join(), /leaves the repository/);
  assert.match(outsideReferences("scripts/import.ts", 'resolve(repo, "../sibling-folder/data")', none).join(), /names nothing/);
  const some = (path: string) => path === "src/shared/mcp/server.ts" || path === "README.md";
  assert.deepEqual(outsideReferences("src/seo/handler.ts", 'import("../shared/mcp/server.ts");', some), []);
  assert.deepEqual(outsideReferences("src/seo/TOOLS.md", "[errors](../../README.md#errors).", some), []);

  const texts = repositoryTexts();
  assert.ok(texts.some(([file]) => file === "tests/charging/data/helpers.ts"), "git ls-files listed the repository");
  // This file holds the checker's made-up fixtures above.
  const found = texts.filter(([file]) => file !== "tests/architecture.test.ts").flatMap(([file, text]) => outsideReferences(file, text, existsSync));
  assert.deepEqual(found, []);
});

// tests/ mirrors src/ folder for folder: a module's tests are found by its folder, and a folder
// of tests names a folder of src/ (helpers without tests, such as tests/seo/fakes/, may sit anywhere).

const MIRRORED = ["src/charging", "src/seo", "src/shared"];

/** Source folders (holding modules) whose mirrored tests/ folder holds no test file, and test folders that mirror no source folder. */
function untestedFolders(modules: string[], tests: string[]): string[] {
  const folders = new Set(modules.map((file) => dirname(file)));
  const tested = new Set(tests.map((file) => dirname(file)));
  const untested = [...folders].filter((folder) => !tested.has(folder.replace(/^src\//, "tests/"))).map((folder) => `${folder}/ has no tests in ${folder.replace(/^src\//, "tests/")}/`);
  const orphans = [...tested].filter((folder) => !folders.has(folder.replace(/^tests\//, "src/"))).map((folder) => `${folder}/ mirrors no folder of src/`);
  return [...untested, ...orphans];
}

test("architecture: every src/charging, src/seo and src/shared folder has its tests folder, and no test folder is elsewhere", () => {
  assert.deepEqual(untestedFolders(["src/shared/a/b.ts", "src/shared/c/d.ts"], ["tests/shared/a/b.test.ts", "tests/shared/c.test.ts", "tests/shared/x/y.test.ts"]), [
    "src/shared/c/ has no tests in tests/shared/c/",
    "tests/shared/ mirrors no folder of src/",
    "tests/shared/x/ mirrors no folder of src/",
  ]);
  const modules = MIRRORED.flatMap(tsFiles);
  const tests = MIRRORED.flatMap((dir) => tsFiles(dir.replace(/^src\//, "tests/"))).filter((file) => file.endsWith(".test.ts"));
  assert.deepEqual(untestedFolders(modules, tests), []);
});
