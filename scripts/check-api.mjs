#!/usr/bin/env node
// The public API of a package, recorded (decision 0039): one API Extractor report per entry point of
// its package.json "exports", checked in under <package>/api/<entry>.api.md. Run from a package folder
// after its build:
//
//   node ../../scripts/check-api.mjs            fails when a report differs from the built .d.ts
//   node ../../scripts/check-api.mjs --update   rewrites the reports (commit the diff)
//
// API Extractor reads the ESM declarations (`import` → `types`, tsup's .d.ts). tsup emits the CommonJS
// declarations (.d.cts) from the same sources; this script checks that each .d.cts exports exactly the
// names its .d.ts does, so the report stands for both.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';

const require = createRequire(import.meta.url);
const { CompilerState, Extractor, ExtractorConfig, ExtractorLogLevel } = require('@microsoft/api-extractor');
const ts = require('typescript');

const update = process.argv.includes('--update');
const pkgDir = resolve(process.cwd());
const pkg = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8'));
const reportFolder = join(pkgDir, 'api');
const tempFolder = join(pkgDir, 'node_modules', '.cache', 'api-extractor');

/** Entry points: subpath → { name, dts, dcts } from the "exports" map (JSON files and ./package.json left out). */
function entriesOf(exportsMap) {
  const out = [];
  for (const [subpath, target] of Object.entries(exportsMap ?? {})) {
    if (typeof target !== 'object' || target === null) continue;
    const dts = target.import?.types ?? target.types;
    if (typeof dts !== 'string' || !dts.endsWith('.d.ts')) continue;
    const dcts = target.require?.types;
    const name = subpath === '.' ? 'index' : subpath.slice(2).replaceAll('/', '-');
    out.push({
      subpath,
      name,
      dts: join(pkgDir, dts),
      dcts: typeof dcts === 'string' ? join(pkgDir, dcts) : undefined,
    });
  }
  return out;
}

const entries = entriesOf(pkg.exports);
if (entries.length === 0) throw new Error(`${pkg.name}: no entry with types in package.json "exports"`);
for (const e of entries) {
  if (!existsSync(e.dts)) throw new Error(`${pkg.name}: ${e.dts} is missing — build the package first`);
}

const compilerOptions = {
  module: 'nodenext',
  moduleResolution: 'nodenext',
  target: 'es2022',
  lib: ['es2022', 'dom'],
  strict: true,
  skipLibCheck: true,
  types: ['node'],
};

function configFor(entry) {
  return ExtractorConfig.prepare({
    configObject: {
      projectFolder: pkgDir,
      mainEntryPointFilePath: entry.dts,
      compiler: { overrideTsconfig: { compilerOptions, include: ['dist/**/*.d.ts'] } },
      apiReport: {
        enabled: true,
        reportFolder,
        reportTempFolder: tempFolder,
        reportFileName: entry.name,
      },
      docModel: { enabled: false },
      dtsRollup: { enabled: false },
      tsdocMetadata: { enabled: false },
      messages: {
        // The report records the surface; the messages below are about documentation style and about
        // types an entry uses that a sibling entry exports (by design: each name has one home).
        compilerMessageReporting: { default: { logLevel: 'warning' } },
        extractorMessageReporting: {
          default: { logLevel: 'warning' },
          'ae-missing-release-tag': { logLevel: 'none' },
          'ae-undocumented': { logLevel: 'none' },
          'ae-forgotten-export': { logLevel: 'none' },
          'ae-internal-missing-underscore': { logLevel: 'none' },
          'ae-unresolved-link': { logLevel: 'none' },
        },
        tsdocMessageReporting: { default: { logLevel: 'none' } },
      },
    },
    configObjectFullPath: join(pkgDir, 'api-extractor.json'),
    packageJsonFullPath: join(pkgDir, 'package.json'),
  });
}

/** Names a declaration file exports, through the TypeScript compiler (the repository's version). */
function exportedNames(program, file) {
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(file);
  const symbol = source && checker.getSymbolAtLocation(source);
  return symbol
    ? checker
        .getExportsOfModule(symbol)
        .map((s) => s.name)
        .sort()
    : [];
}

const problems = [];

// .d.cts and .d.ts export the same names.
const withCjs = entries.filter((e) => e.dcts);
const program = ts.createProgram(
  withCjs.flatMap((e) => [e.dts, e.dcts]),
  {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    skipLibCheck: true,
    noEmit: true,
  },
);
for (const e of withCjs) {
  const esm = exportedNames(program, e.dts).join(' ');
  const cjs = exportedNames(program, e.dcts).join(' ');
  if (esm !== cjs) problems.push(`${e.subpath}: ${e.dcts} does not export the names ${e.dts} does`);
}

// One API Extractor program for every entry.
const configs = entries.map(configFor);
const compilerState = CompilerState.create(configs[0], { additionalEntryPoints: entries.map((e) => e.dts) });
const expected = new Set(entries.map((e) => `${e.name}.api.md`));
mkdirSync(reportFolder, { recursive: true });

const counts = [];
for (const [i, entry] of entries.entries()) {
  const messages = [];
  const result = Extractor.invoke(configs[i], {
    localBuild: update,
    compilerState,
    messageCallback: (message) => {
      // console-* messages say where a report was written or that it changed: counted below.
      const serious =
        message.logLevel === ExtractorLogLevel.Error || message.logLevel === ExtractorLogLevel.Warning;
      if (serious && !message.messageId.startsWith('console-')) {
        messages.push(`${message.messageId}: ${message.text}`);
      }
      message.handled = true;
    },
  });
  counts.push(`${entry.subpath} ${exportedNames(program, entry.dts).length}`);
  for (const m of messages) problems.push(`${entry.subpath}: ${m}`);
  if (!result.succeeded && !update) {
    problems.push(
      `${entry.subpath}: api/${entry.name}.api.md differs from ${entry.dts.slice(pkgDir.length + 1)}` +
        ` (run \`pnpm --filter ${pkg.name} run check:api --update\` and commit the report; the new text is in ${tempFolder})`,
    );
  }
}

// A report whose entry left package.json is stale.
for (const file of readdirSync(reportFolder)) {
  if (!file.endsWith('.api.md') || expected.has(file)) continue;
  if (update) rmSync(join(reportFolder, file));
  else problems.push(`api/${file}: no entry point of that name in package.json "exports" (remove it)`);
}

console.log(`${pkg.name} exported names per entry: ${counts.join(', ')}`);
if (problems.length > 0) {
  for (const p of problems) console.error(`check-api: ${p}`);
  process.exit(1);
}
console.log(`${pkg.name}: ${entries.length} API report(s) ${update ? 'written' : 'match the build'}`);
