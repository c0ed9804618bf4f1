import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

/** One import between two files of src/ (paths relative to src/, with '/'). */
export interface ImportEdge {
  from: string;
  to: string;
  /** `import type` / `export type`, or every named binding marked `type`: gone at run time. */
  typeOnly: boolean;
  /** `import()`: loaded when the code that calls it runs, not with the module. */
  dynamic?: boolean;
}

/** Every .ts file under `dir`, relative to it, skipping the folders given. */
export function sourceFiles(dir: string, skip: readonly string[] = []): string[] {
  const out: string[] = [];
  const walk = (sub: string): void => {
    for (const entry of readdirSync(join(dir, sub), { withFileTypes: true })) {
      const path = sub ? `${sub}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        if (!skip.includes(path)) walk(path);
      } else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) {
        out.push(path);
      }
    }
  };
  walk('');
  return out.sort();
}

/** The imports of src/ read with TypeScript's own parser: import/export ... from, and import(). */
export function importEdges(srcDir: string, files: readonly string[]): ImportEdge[] {
  const edges: ImportEdge[] = [];
  for (const file of files) {
    const text = readFileSync(join(srcDir, file), 'utf8');
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
    const add = (specifier: string, typeOnly: boolean, dynamic = false): void => {
      const to = resolveLocal(srcDir, file, specifier);
      if (to !== undefined) edges.push({ from: file, to, typeOnly, ...(dynamic && { dynamic }) });
    };
    const visit = (node: ts.Node): void => {
      if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
        add(node.moduleSpecifier.text, isTypeOnlyImport(node));
      } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
        add(node.moduleSpecifier.text, isTypeOnlyExport(node));
      } else if (
        ts.isCallExpression(node) &&
        node.expression.kind === ts.SyntaxKind.ImportKeyword &&
        node.arguments[0] &&
        ts.isStringLiteralLike(node.arguments[0])
      ) {
        add(node.arguments[0].text, false, true);
      } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
        const literal = node.argument.literal;
        if (ts.isStringLiteral(literal)) add(literal.text, true);
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return edges;
}

function isTypeOnlyImport(node: ts.ImportDeclaration): boolean {
  const clause = node.importClause;
  if (!clause) return false; // a side-effect import runs the module
  if (clause.isTypeOnly) return true;
  if (clause.name) return false;
  const bindings = clause.namedBindings;
  return (
    bindings !== undefined &&
    ts.isNamedImports(bindings) &&
    bindings.elements.length > 0 &&
    bindings.elements.every((e) => e.isTypeOnly)
  );
}

function isTypeOnlyExport(node: ts.ExportDeclaration): boolean {
  if (node.isTypeOnly) return true;
  const clause = node.exportClause;
  return (
    clause !== undefined &&
    ts.isNamedExports(clause) &&
    clause.elements.length > 0 &&
    clause.elements.every((e) => e.isTypeOnly)
  );
}

/** A relative specifier ('./x.js') as the src/ file it names; undefined for packages and node: modules. */
function resolveLocal(srcDir: string, from: string, specifier: string): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  const absolute = resolve(srcDir, dirname(from), specifier);
  const candidates = [absolute.replace(/\.js$/, '.ts'), `${absolute}.ts`, join(absolute, 'index.ts')];
  const found = candidates.find((c) => existsSync(c)) ?? absolute;
  return relative(srcDir, found).split('\\').join('/');
}

/** The cycles of a directed graph: its strongly connected components of more than one node, or a self-loop. */
export function cyclesOf(nodes: Iterable<string>, edges: ReadonlyArray<{ from: string; to: string }>): string[][] {
  const next = new Map<string, string[]>();
  for (const node of nodes) next.set(node, []);
  for (const { from, to } of edges) {
    if (!next.has(from)) next.set(from, []);
    if (!next.has(to)) next.set(to, []);
    next.get(from)!.push(to);
  }
  // Tarjan's algorithm, iterative so a deep graph cannot overflow the stack.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const components: string[][] = [];
  let counter = 0;
  for (const start of next.keys()) {
    if (index.has(start)) continue;
    const work: Array<{ node: string; child: number }> = [{ node: start, child: 0 }];
    index.set(start, counter);
    low.set(start, counter++);
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const frame = work[work.length - 1]!;
      const children = next.get(frame.node)!;
      if (frame.child < children.length) {
        const child = children[frame.child++]!;
        if (!index.has(child)) {
          index.set(child, counter);
          low.set(child, counter++);
          stack.push(child);
          onStack.add(child);
          work.push({ node: child, child: 0 });
        } else if (onStack.has(child)) {
          low.set(frame.node, Math.min(low.get(frame.node)!, index.get(child)!));
        }
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) low.set(parent.node, Math.min(low.get(parent.node)!, low.get(frame.node)!));
      if (low.get(frame.node) === index.get(frame.node)) {
        const component: string[] = [];
        let member: string;
        do {
          member = stack.pop()!;
          onStack.delete(member);
          component.push(member);
        } while (member !== frame.node);
        const selfLoop = children.includes(frame.node);
        if (component.length > 1 || selfLoop) components.push(component.sort());
      }
    }
  }
  return components;
}
