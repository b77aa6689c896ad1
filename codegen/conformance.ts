// Static conformance (ts-morph):
// 1. the TypeBox `Static<>` of every definition and the generated type are mutually assignable;
// 2. every exported function under src/{adapters,acp,ui,executor,compress} that declares
//    `@contract <Def>` in its JSDoc returns something assignable to the generated <Def> (Promise,
//    arrays and iterables are unwrapped to their element type).
import { Node, Project, type SourceFile, type Type } from 'ts-morph';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { registry } from '../schema/src/helpers.js';
import '../schema/src/index.js';

export const CHECKED_DIRS = ['src/adapters', 'src/acp', 'src/ui', 'src/executor', 'src/compress'];

export interface ConformanceResult {
  definitions: number;
  functions: { file: string; name: string; contract: string }[];
  failures: string[];
}

export interface ConformanceOptions {
  root: string;
  /** Extra in-memory files (repo-relative path → text), e.g. a scratch file in a test. */
  extraFiles?: Record<string, string>;
}

function unwrap(type: Type): Type {
  const symbol = type.getSymbol()?.getName() ?? type.getAliasSymbol()?.getName();
  const args = type.getTypeArguments();
  if (type.isArray()) return unwrap(type.getArrayElementTypeOrThrow());
  if (symbol && ['Promise', 'Iterable', 'IterableIterator', 'AsyncIterable', 'AsyncIterableIterator', 'Generator', 'AsyncGenerator', 'ReadonlyArray', 'Array'].includes(symbol) && args[0]) {
    return unwrap(args[0]);
  }
  return type;
}

function contractTag(node: Node): string | undefined {
  const holder = Node.isVariableDeclaration(node) ? node.getVariableStatement() : node;
  if (!holder || !Node.isJSDocable(holder)) return undefined;
  for (const doc of holder.getJsDocs()) {
    for (const tag of doc.getTags()) {
      if (tag.getTagName() === 'contract') return tag.getCommentText()?.trim().split(/\s+/)[0];
    }
  }
  return undefined;
}

export function runConformance(options: ConformanceOptions): ConformanceResult {
  const { root } = options;
  const project = new Project({ tsConfigFilePath: join(root, 'tsconfig.json'), skipAddingFilesFromTsConfig: true });
  project.addSourceFilesAtPaths([join(root, 'generated/types.ts'), join(root, 'schema/src/**/*.ts'), ...CHECKED_DIRS.map((d) => join(root, d, '**/*.ts'))]);
  for (const [path, text] of Object.entries(options.extraFiles ?? {})) project.createSourceFile(join(root, path), text, { overwrite: true });

  const names = [...registry.keys()];
  const failures: string[] = [];
  // 1. TypeBox Static<> ⇄ generated types, checked by the compiler on a probe file.
  const probe = project.createSourceFile(join(root, 'codegen/__conformance_probe__.ts'), [
    "import type { Static } from '@sinclair/typebox';",
    "import type * as S from '../schema/src/types.js';",
    "import type * as G from '../generated/types.js';",
    ...names.flatMap((n) => [
      `export const __s2g_${n}: G.${n} = null as unknown as Static<typeof S.${n}>;`,
      `export const __g2s_${n}: Static<typeof S.${n}> = null as unknown as G.${n};`,
    ]),
  ].join('\n'), { overwrite: true });
  for (const d of probe.getPreEmitDiagnostics()) {
    const line = d.getLineNumber();
    const text = line ? probe.getFullText().split('\n')[line - 1] ?? '' : '';
    const m = /__(s2g|g2s)_(\w+)/.exec(text);
    const what = m ? `${m[2]}: ${m[1] === 's2g' ? 'TypeBox Static is not assignable to the generated type' : 'generated type is not assignable to TypeBox Static'}` : 'probe';
    failures.push(`${what}: ${String(d.getMessageText() instanceof Object ? (d.getMessageText() as { getMessageText(): string }).getMessageText() : d.getMessageText()).split('\n')[0]}`);
  }

  // 2. Registered functions.
  const targets = project.createSourceFile(join(root, 'codegen/__conformance_targets__.ts'), [
    "import type * as G from '../generated/types.js';",
    ...names.map((n) => `export type T_${n} = G.${n};`),
  ].join('\n'), { overwrite: true });
  const contractType = (name: string) => targets.getTypeAliasOrThrow(`T_${name}`).getType();
  const functions: ConformanceResult['functions'] = [];
  const files: SourceFile[] = project.getSourceFiles().filter((f) => CHECKED_DIRS.some((d) => relative(join(root, d), f.getFilePath()).split('/')[0] !== '..'));
  for (const file of files) {
    for (const [exportName, decls] of file.getExportedDeclarations()) {
      for (const decl of decls) {
        let fnNode: Node | undefined;
        if (Node.isFunctionDeclaration(decl)) fnNode = decl;
        else if (Node.isVariableDeclaration(decl)) {
          const init = decl.getInitializer();
          if (init && (Node.isArrowFunction(init) || Node.isFunctionExpression(init))) fnNode = init;
        }
        if (!fnNode) continue;
        const contract = contractTag(decl);
        if (!contract) continue;
        const where = `${relative(root, file.getFilePath())}:${exportName}`;
        if (!names.includes(contract)) {
          failures.push(`${where}: @contract ${contract} is not a definition of the schema`);
          continue;
        }
        const sig = fnNode.getType().getCallSignatures()[0];
        if (!sig) continue;
        const returned = unwrap(sig.getReturnType());
        functions.push({ file: relative(root, file.getFilePath()), name: exportName, contract });
        if (!returned.isAssignableTo(contractType(contract))) {
          failures.push(`${where}: returns ${returned.getText(fnNode)}, which is not a ${contract}`);
        }
      }
    }
  }
  return { definitions: names.length, functions, failures };
}

const isMain = process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
  const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
  const r = runConformance({ root });
  if (r.failures.length) {
    console.error(`conformance: ${r.failures.length} failure(s):\n  ${r.failures.join('\n  ')}`);
    process.exitCode = 1;
  } else {
    console.log(`conformance: ${r.definitions} definitions mutually assignable with their TypeBox sources; ${r.functions.length} @contract functions conform (${[...new Set(r.functions.map((f) => f.contract))].join(', ')})`);
  }
}
