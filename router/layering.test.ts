/**
 * The router's folders are layers: code imports only downward. A value import (one that runs) between two
 * folders never goes both ways, and no file imports itself back through others. Type-only imports are
 * exempt: they are the shared words (a request's context, an answer's shape) and vanish at runtime.
 * Sub-folders of `engine/` count as folders of their own; `index.ts` is the top, above every folder.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const routerDir = path.dirname(fileURLToPath(import.meta.url));

interface Edge {
  from: string;
  to: string;
  typeOnly: boolean;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return ['test-support', 'testing'].includes(entry.name) ? [] : sourceFiles(file);
    const isSource = entry.name.endsWith('.ts') && !/\.(test|spec|smoke)\.ts$/.test(entry.name);
    return isSource && !/test-kit|sdk-test-server/.test(entry.name) ? [file] : [];
  });
}

function isTypeOnly(node: ts.ImportDeclaration | ts.ExportDeclaration): boolean {
  if (ts.isExportDeclaration(node)) return node.isTypeOnly;
  const clause = node.importClause;
  if (!clause) return false;
  if (clause.isTypeOnly) return true;
  const bindings = clause.namedBindings;
  return (
    !clause.name && !!bindings && ts.isNamedImports(bindings) && bindings.elements.every((e) => e.isTypeOnly)
  );
}

function importsOf(file: string): Edge[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest);
  return source.statements.flatMap((node) => {
    if (!ts.isImportDeclaration(node) && !ts.isExportDeclaration(node)) return [];
    const spec = node.moduleSpecifier;
    if (!spec || !ts.isStringLiteral(spec) || !spec.text.startsWith('.')) return [];
    const to = path.resolve(path.dirname(file), spec.text).replace(/\.js$/, '.ts');
    return [{ from: file, to, typeOnly: isTypeOnly(node) }];
  });
}

/** `engine/routing` for a file under engine's sub-folders, `faces` for one under faces, `.` for the top's shared types. */
function layerOf(file: string): string {
  if (file === path.join(routerDir, 'index.ts')) return 'index';
  const parts = path.relative(routerDir, path.dirname(file)).split(path.sep);
  return (parts[0] === 'engine' ? parts.slice(0, 2) : parts.slice(0, 1)).join('/') || '.';
}

const edges = sourceFiles(routerDir)
  .flatMap(importsOf)
  .filter((edge) => !edge.typeOnly);

test('value imports between folders run one way only', () => {
  const pairs = new Map<string, string>();
  for (const edge of edges) {
    const [a, b] = [layerOf(edge.from), layerOf(edge.to)];
    if (a !== b) pairs.set(`${a} -> ${b}`, path.relative(routerDir, edge.from));
  }
  const both = [...pairs.keys()].filter((key) => pairs.has(key.split(' -> ').reverse().join(' -> ')));
  assert.deepEqual(
    both,
    [],
    `folders importing each other: ${both.map((k) => `${k} (${pairs.get(k)})`).join(', ')}`,
  );
  assert.ok(pairs.size > 20, 'the walk found the folders’ imports');
});

test('no file imports itself back through others', () => {
  const next = new Map<string, string[]>();
  for (const edge of edges) next.set(edge.from, [...(next.get(edge.from) ?? []), edge.to]);
  const done = new Set<string>();
  const cycles: string[] = [];
  const visit = (file: string, trail: string[]): void => {
    if (trail.includes(file)) {
      cycles.push(
        [...trail.slice(trail.indexOf(file)), file].map((f) => path.relative(routerDir, f)).join(' -> '),
      );
      return;
    }
    if (done.has(file)) return;
    for (const to of next.get(file) ?? []) visit(to, [...trail, file]);
    done.add(file);
  };
  for (const file of next.keys()) visit(file, []);
  assert.deepEqual(cycles, []);
});

test('the desktop app reaches the router through index.ts only', () => {
  const electronDir = path.join(routerDir, '..', 'electron');
  const inside = sourceFiles(electronDir)
    .flatMap(importsOf)
    .filter(
      (edge) => edge.to.startsWith(routerDir + path.sep) && edge.to !== path.join(routerDir, 'index.ts'),
    );
  assert.deepEqual(
    inside.map((edge) => `${path.relative(electronDir, edge.from)} -> ${path.relative(routerDir, edge.to)}`),
    [],
  );
});

test('the top of router/ holds its public doors only (at most six loose files); the rest is in folders', () => {
  const loose = readdirSync(routerDir, { withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts'))
    .map((entry) => entry.name);
  assert.ok(loose.length <= 6, `loose files: ${loose.join(', ')}`);
  assert.ok(loose.includes('index.ts'));
});

test('index.ts only re-exports', () => {
  const file = path.join(routerDir, 'index.ts');
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest);
  const other = source.statements.filter((node) => !ts.isExportDeclaration(node));
  assert.deepEqual(
    other.map((node) => node.getText(source).slice(0, 60)),
    [],
  );
});
