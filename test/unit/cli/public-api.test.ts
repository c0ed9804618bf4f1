// The CLI is a set of thin commands over the package's public API: every module of src/ it loads is one that
// src/index.ts exports from (a command loads that module alone, so it starts without the rest), the table of
// options, or one of the few shared words and checks listed below.
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('../../../src/', import.meta.url));

/** Modules of src/ (relative, .ts) that `file` loads at run time: value imports and import() calls. */
function loadedModules(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && !node.importClause?.isTypeOnly) {
      const named = node.importClause?.namedBindings;
      const allTypes =
        named !== undefined &&
        ts.isNamedImports(named) &&
        !node.importClause?.name &&
        named.elements.every((e) => e.isTypeOnly);
      if (!allTypes) found.push((node.moduleSpecifier as ts.StringLiteral).text);
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] !== undefined &&
      ts.isStringLiteral(node.arguments[0])
    ) {
      found.push(node.arguments[0].text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** `../x/y.js` from src/cli/ as `x/y.ts`; undefined for a package or a module of cli/ itself. */
function srcModule(specifier: string, from: string): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  const path = new URL(specifier, `file://${from}`).pathname.replace(/\.js$/, '.ts');
  const relative = path.slice(SRC.length);
  return relative.startsWith('cli/') ? undefined : relative;
}

/** The modules src/index.ts exports values from. */
function publicModules(): Set<string> {
  const index = `${SRC}index.ts`;
  const source = ts.createSourceFile(index, readFileSync(index, 'utf8'), ts.ScriptTarget.Latest, true);
  const modules = new Set<string>();
  for (const statement of source.statements) {
    if (!ts.isExportDeclaration(statement) || statement.isTypeOnly || !statement.moduleSpecifier) continue;
    const clause = statement.exportClause;
    if (clause && ts.isNamedExports(clause) && clause.elements.every((e) => e.isTypeOnly)) continue;
    modules.add(srcModule((statement.moduleSpecifier as ts.StringLiteral).text, index)!);
  }
  return modules;
}

/** Shared with the library so the CLI says and checks things as the mock does; each with why it is not public API. */
const SHARED: Record<string, string> = {
  'option-table.ts': 'the one table of options: flags, variables, config keys and defaults',
  'server.ts': 'startMock (public), loaded by itself',
  'clock/durations.ts': 'the one duration parser, for explore --duration',
  'explore/report-text.ts': "explore's report as text (the explore command's own words)",
  'converge/oracle.ts': "converge's report as text (the converge command's own words)",
  'http/stdout-lines.ts': "the request log's batched stdout writer: the CLI's own lines keep their order with it",
  'http/cors.ts': '--cors-origin checked at parse time by the rule startMock applies',
  'http/journal-query.ts': "the journal filter's own checks (a status class, the longest wait)",
  'http/methods.ts': 'the methods the mock serves, for --method',
  'http/network-record.ts': "the words the server's log uses for network conditions",
  'scenarios/latency-sampler.ts': "the words the server's log uses for latency",
  'scenarios/closest-name.ts': '"did you mean": the CLI suggests as the mock does',
  'scenarios/json-error.ts': 'where a JSON text is broken, said as for scenario files',
  'scenarios/generate/generate-shorthand.ts': '--generate text read into the spec the ready line describes',
  'record/record-modes.ts': "record --mode's choices and their descriptions",
  'replay/miss-policy.ts': "replay --on-miss's choices",
  'tls/ca-folder.ts': 'the local CA that startMock({ https: true }) makes, shown by "csp-mock ca"',
  'tls/local-ca.ts': 'the local CA (csp-mock ca)',
  'tls/trust-guide.ts': 'how to trust the local CA (csp-mock ca)',
};

describe('the CLI over the public API', () => {
  it('every module of src/ a command loads is one src/index.ts exports from, the option table, or a listed shared one', () => {
    const allowed = publicModules();
    const beyond: string[] = [];
    for (const name of readdirSync(`${SRC}cli`).filter((n) => n.endsWith('.ts'))) {
      const file = `${SRC}cli/${name}`;
      for (const specifier of loadedModules(file)) {
        const module = srcModule(specifier, file);
        if (module !== undefined && !allowed.has(module) && !(module in SHARED))
          beyond.push(`cli/${name} -> ${module}`);
      }
    }
    expect(beyond).toEqual([]);
  });

  it('every listed shared module is still loaded by a command (the list only shrinks)', () => {
    const loaded = new Set(
      readdirSync(`${SRC}cli`)
        .filter((n) => n.endsWith('.ts'))
        .flatMap((n) => loadedModules(`${SRC}cli/${n}`).map((s) => srcModule(s, `${SRC}cli/${n}`))),
    );
    expect(Object.keys(SHARED).filter((m) => !loaded.has(m))).toEqual([]);
  });
});
