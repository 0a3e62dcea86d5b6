#!/usr/bin/env node
/**
 * Figures of the code's shape (issue #38, decision 0042), read with the TypeScript compiler API:
 * lines per package, the names each published entry exports, the longest functions, the branches on
 * `assetType` and the import cycles inside each package (runtime and type-only edges told apart).
 *
 *   node scripts/code-figures.mjs            the figures as Markdown
 *   node scripts/code-figures.mjs --json     the same as JSON
 *
 * Why the compiler and not madge or dpdm: it is already pinned here (typescript 5.9), it reads
 * `import type` exactly as the build does (a type-only import is not a runtime edge; under
 * verbatimModuleSyntax `import { type A }` still is), and one pass gives every figure.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const packagesDir = join(root, 'packages');
const isSource = (f) => /\.(ts|tsx)$/.test(f) && !/\.(test|test-d)\.tsx?$/.test(f) && !f.endsWith('.d.ts');

function walk(dir, out = []) {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p, out);
    else if (isSource(p)) out.push(p);
  }
  return out;
}

const packages = readdirSync(packagesDir)
  .filter((n) => statSync(join(packagesDir, n, 'src'), { throwIfNoEntry: false })?.isDirectory())
  .map((n) => {
    const dir = join(packagesDir, n);
    const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    return { dir, name: pkg.name, pkg, files: walk(join(dir, 'src')) };
  });

const generated = (f, text) => /\/generated\//.test(f) || /generated.*do not edit/i.test(text.slice(0, 400));

/** The source file of each exports entry (`./dist/x.js` → `src/x.ts`), as tsup builds them. */
function entries(p) {
  const out = [];
  for (const [key, value] of Object.entries(p.pkg.exports ?? {})) {
    if (key === './package.json') continue;
    const target =
      typeof value === 'string' ? value : (value.import?.default ?? value.default ?? value.import);
    if (typeof target !== 'string' || !target.endsWith('.js')) continue;
    const base = target.replace(/^\.\/dist\//, '').replace(/\.js$/, '');
    // src/x.ts, src/x/index.ts, or a file of src/entries/ (core: `store/embedded` → store-embedded.ts)
    const flat = base.replace(/\/index$/, '').replace(/\//g, '-');
    const src = [
      join(p.dir, 'src', `${base}.ts`),
      join(p.dir, 'src', base, 'index.ts'),
      join(p.dir, 'src', 'entries', `${flat}.ts`),
    ].find((f) => statSync(f, { throwIfNoEntry: false }));
    if (src) out.push({ key, src });
  }
  return out;
}

const allFiles = packages.flatMap((p) => p.files);
const program = ts.createProgram(allFiles, {
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  jsx: ts.JsxEmit.ReactJSX,
  allowImportingTsExtensions: true,
  noEmit: true,
  skipLibCheck: true,
});
const checker = program.getTypeChecker();

const figures = { packages: [], longest: [], cycles: [], assetTypeBranches: { total: 0, files: {} } };
const functions = [];

function functionName(node, sf) {
  if (node.name && ts.isIdentifier(node.name)) return node.name.text;
  if (node.name) return node.name.getText(sf);
  const parent = node.parent;
  if (parent && ts.isVariableDeclaration(parent) && ts.isIdentifier(parent.name)) return parent.name.text;
  if (parent && ts.isPropertyAssignment(parent)) return parent.name.getText(sf);
  if (parent && ts.isCallExpression(parent))
    return `(callback of ${parent.expression.getText(sf).slice(0, 40)})`;
  return '(anonymous)';
}

const isAssetTypeExpr = (e) =>
  (ts.isPropertyAccessExpression(e) && e.name.text === 'assetType') ||
  (ts.isIdentifier(e) && e.text === 'assetType');

for (const p of packages) {
  let lines = 0;
  let generatedLines = 0;
  const graph = new Map();
  for (const file of p.files) {
    const text = readFileSync(file, 'utf8');
    const n = text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
    if (generated(file, text)) generatedLines += n;
    else lines += n;
    const sf = program.getSourceFile(file);
    if (!sf) continue;
    const edges = [];
    const addEdge = (spec, typeOnly) => {
      if (!spec.startsWith('.')) return;
      const resolved = ts.resolveModuleName(spec, file, program.getCompilerOptions(), ts.sys).resolvedModule;
      if (resolved && p.files.includes(resolved.resolvedFileName))
        edges.push({ to: resolved.resolvedFileName, typeOnly });
    };
    const visit = (node) => {
      if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
        addEdge(node.moduleSpecifier.text, node.importClause?.isTypeOnly === true);
      } else if (
        ts.isExportDeclaration(node) &&
        node.moduleSpecifier &&
        ts.isStringLiteral(node.moduleSpecifier)
      ) {
        addEdge(node.moduleSpecifier.text, node.isTypeOnly);
      } else if (
        ts.isCallExpression(node) &&
        node.expression.kind === ts.SyntaxKind.ImportKeyword &&
        node.arguments[0] &&
        ts.isStringLiteral(node.arguments[0])
      ) {
        addEdge(node.arguments[0].text, false);
      }
      if (
        ts.isFunctionDeclaration(node) ||
        ts.isMethodDeclaration(node) ||
        ts.isArrowFunction(node) ||
        ts.isFunctionExpression(node) ||
        ts.isGetAccessor(node) ||
        ts.isConstructorDeclaration(node)
      ) {
        if (node.body) {
          const start = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line;
          const end = sf.getLineAndCharacterOfPosition(node.getEnd()).line;
          functions.push({
            package: p.name,
            file: relative(root, file),
            line: start + 1,
            name: functionName(node, sf),
            lines: end - start + 1,
          });
        }
      }
      if (ts.isBinaryExpression(node)) {
        const op = node.operatorToken.kind;
        const eq = [
          ts.SyntaxKind.EqualsEqualsEqualsToken,
          ts.SyntaxKind.ExclamationEqualsEqualsToken,
          ts.SyntaxKind.EqualsEqualsToken,
          ts.SyntaxKind.ExclamationEqualsToken,
        ].includes(op);
        if (
          eq &&
          ((isAssetTypeExpr(node.left) && ts.isStringLiteral(node.right)) ||
            (isAssetTypeExpr(node.right) && ts.isStringLiteral(node.left)))
        )
          countBranch(file);
      }
      if (ts.isSwitchStatement(node) && isAssetTypeExpr(node.expression))
        for (const clause of node.caseBlock.clauses) if (ts.isCaseClause(clause)) countBranch(file);
      ts.forEachChild(node, visit);
    };
    visit(sf);
    graph.set(file, edges);
  }
  const exportsOf = entries(p).map(({ key, src }) => {
    const sf = program.getSourceFile(src);
    const symbol = sf && checker.getSymbolAtLocation(sf);
    return { entry: key, names: symbol ? checker.getExportsOfModule(symbol).length : 0 };
  });
  figures.packages.push({ name: p.name, files: p.files.length, lines, generatedLines, exports: exportsOf });
  for (const typeOnlyToo of [false, true]) {
    for (const scc of stronglyConnected(graph, typeOnlyToo)) {
      figures.cycles.push({
        package: p.name,
        runtime: !typeOnlyToo,
        files: scc.map((f) => relative(join(p.dir, 'src'), f)).sort(),
      });
    }
  }
}

function countBranch(file) {
  const rel = relative(root, file);
  figures.assetTypeBranches.total++;
  figures.assetTypeBranches.files[rel] = (figures.assetTypeBranches.files[rel] ?? 0) + 1;
}

/** Tarjan's strongly connected components of more than one file (or a file importing itself). */
function stronglyConnected(graph, typeOnlyToo) {
  let index = 0;
  const stack = [];
  const on = new Set();
  const idx = new Map();
  const low = new Map();
  const out = [];
  const next = (v) => (graph.get(v) ?? []).filter((e) => typeOnlyToo || !e.typeOnly).map((e) => e.to);
  const strong = (v) => {
    idx.set(v, index);
    low.set(v, index);
    index++;
    stack.push(v);
    on.add(v);
    for (const w of next(v)) {
      if (!idx.has(w)) {
        strong(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v), idx.get(w)));
    }
    if (low.get(v) === idx.get(v)) {
      const scc = [];
      let w;
      do {
        w = stack.pop();
        on.delete(w);
        scc.push(w);
      } while (w !== v);
      if (scc.length > 1 || next(v).includes(v)) out.push(scc);
    }
  };
  for (const v of graph.keys()) if (!idx.has(v)) strong(v);
  return out;
}

// a type-only cycle is listed once: the SCCs with type edges that are not already runtime SCCs
const runtimeKeys = new Set(
  figures.cycles.filter((c) => c.runtime).map((c) => `${c.package}:${c.files.join()}`),
);
figures.cycles = figures.cycles.filter(
  (c) => c.runtime || !runtimeKeys.has(`${c.package}:${c.files.join()}`),
);
functions.sort((a, b) => b.lines - a.lines);
figures.longest = functions.slice(0, 20);
figures.all = functions;
const over = (n, pkgs) => functions.filter((f) => f.lines > n && (!pkgs || pkgs.includes(f.package))).length;
figures.over200 = {
  all: over(200),
  pipelineAndGenerator: over(200, ['@assetloom/pipeline', '@assetloom/generator']),
};
figures.over150 = over(150, ['@assetloom/pipeline', '@assetloom/generator']);

if (process.argv.includes('--json')) {
  console.log(JSON.stringify(figures, null, 2));
} else {
  const out = [];
  out.push('| package | files | lines (generated apart) | names exported per entry |', '|---|---|---|---|');
  for (const p of figures.packages)
    out.push(
      `| ${p.name} | ${p.files} | ${p.lines} (+${p.generatedLines}) | ${p.exports.map((e) => `\`${e.entry}\` ${e.names}`).join(', ')} |`,
    );
  out.push('', '| # | function | package file:line | lines |', '|---|---|---|---|');
  for (const [i, f] of figures.longest.entries())
    out.push(`| ${i + 1} | \`${f.name}\` | ${f.file}:${f.line} | ${f.lines} |`);
  out.push(
    '',
    `functions over 200 lines: ${figures.over200.all} in all packages, ${figures.over200.pipelineAndGenerator} in the pipeline and the generator; over 150 there: ${figures.over150}`,
  );
  const files = Object.entries(figures.assetTypeBranches.files).sort((a, b) => b[1] - a[1]);
  out.push(
    '',
    `branches on assetType (comparisons with a literal, switch cases): ${figures.assetTypeBranches.total} in ${files.length} files`,
  );
  for (const [f, n] of files) out.push(`- ${f}: ${n}`);
  out.push('', `import cycles: ${figures.cycles.length}`);
  for (const c of figures.cycles)
    out.push(`- ${c.package} (${c.runtime ? 'runtime' : 'type-only edges'}): ${c.files.join(' ↔ ')}`);
  console.log(out.join('\n'));
}
