// `node scripts/ai-sdk-validate.mjs --ai PREFIX [FILE|DIR ...]`: the built CLI's `--to ai-sdk` and
// `--to ai-sdk-stream` output for every recording, checked by the AI SDK installed under PREFIX
// (`npm install --prefix PREFIX ai@7`, never into this repo's node_modules, which holds the ai@6
// the vitest suites check against): each part with `safeValidateUIMessages`, each chunk with
// `uiMessageChunkSchema`, and the stream read back with `readUIMessageStream` into the same parts.
// Recordings: the arguments, else ../shared/corpus when it is there, else fixtures/. Plain
// JavaScript, so it runs on whichever Node runs it (CI: Node 24) with no TypeScript loader.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const at = args.indexOf('--ai');
if (at < 0 || !args[at + 1]) {
  process.stderr.write('usage: node scripts/ai-sdk-validate.mjs --ai PREFIX [FILE|DIR ...]   (PREFIX: where `npm install --prefix PREFIX ai@7` put it)\n');
  process.exit(2);
}
const prefix = resolve(args[at + 1]);
const inputs = args.filter((_, i) => i !== at && i !== at + 1);
const cli = join(root, 'dist', 'src', 'cli', 'main.js');
if (!existsSync(cli)) {
  process.stderr.write(`ai-sdk-validate: ${relative(process.cwd(), cli)} is missing; run \`npm run build\` first\n`);
  process.exit(2);
}

// The AI SDK from PREFIX, resolved from there: Node would otherwise find this repo's ai@6.
const fromPrefix = createRequire(join(prefix, 'package.json'));
let ai, utils;
try {
  ai = fromPrefix('ai');
  utils = fromPrefix('@ai-sdk/provider-utils');
} catch (err) {
  process.stderr.write(`ai-sdk-validate: no AI SDK under ${prefix} (${err.code ?? err.message}); run \`npm install --prefix ${prefix} ai@7\`\n`);
  process.exit(2);
}
const aiVersion = fromPrefix('ai/package.json').version;
const { safeValidateUIMessages, uiMessageChunkSchema, readUIMessageStream } = ai;
for (const [name, v] of Object.entries({ safeValidateUIMessages, readUIMessageStream })) {
  if (typeof v !== 'function') {
    process.stderr.write(`ai-sdk-validate: ai@${aiVersion} has no ${name}\n`);
    process.exit(2);
  }
}

/** Every recording under the inputs: .jsonl, .json and .sse files, sorted, sidecars left to the CLI's detection. */
function recordings() {
  const corpus = join(root, '..', 'shared', 'corpus');
  // As the corpus suites: CI must check the corpus, a clone without it checks the fixtures.
  if (!inputs.length && !existsSync(corpus) && process.env.CI) {
    process.stderr.write(`ai-sdk-validate: ../shared/corpus is missing at ${corpus}; CI must check the corpus\n`);
    process.exit(1);
  }
  const roots = inputs.length ? inputs.map((p) => resolve(p)) : [existsSync(corpus) ? corpus : join(root, 'fixtures')];
  const out = [];
  const walk = (p) => {
    if (statSync(p).isDirectory()) for (const name of readdirSync(p).sort()) walk(join(p, name));
    else if (/\.(jsonl|json|sse)$/.test(p) && !/\.(parts|acp|expected)\.json$|case\.json$|manifest\.json$/.test(p)) out.push(p);
  };
  for (const r of roots) walk(r);
  return out;
}

function normalize(file, to, extra = []) {
  const r = spawnSync(process.execPath, [cli, 'normalize', '--to', to, ...extra, file], { encoding: 'utf8', maxBuffer: 512 << 20 });
  if (r.status !== 0 && r.status !== 2) return { error: `exit ${r.status}: ${r.stderr.trim().split('\n')[0]}` };
  return { records: r.stdout.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l)) };
}

async function readBack(chunks) {
  const stream = new ReadableStream({ start(c) { for (const chunk of chunks) c.enqueue(chunk); c.close(); } });
  let last;
  for await (const m of readUIMessageStream({ stream, terminateOnError: true })) last = m;
  return last;
}

const plain = (v) => JSON.parse(JSON.stringify(v));
/** JSON with object keys sorted, so equal values compare equal whatever order their keys came in. */
const canonical = (v) => JSON.stringify(v, (_k, x) => (x && typeof x === 'object' && !Array.isArray(x) ? Object.fromEntries(Object.entries(x).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : x));
const failures = [];
let checked = 0;
let parts = 0;
let chunksChecked = 0;
let detected = 0;

for (const file of recordings()) {
  const rel = relative(root, file);
  const dynamic = normalize(file, 'ai-sdk');
  // A file the CLI cannot read as a recording (a sidecar, a script's data) is not ours to check.
  if (dynamic.error || !dynamic.records.length) continue;
  detected++;
  const staticParts = normalize(file, 'ai-sdk', ['--ai-sdk-parts', 'static']);
  const stream = normalize(file, 'ai-sdk-stream');
  for (const [form, run] of [['dynamic', dynamic], ['static', staticParts]]) {
    for (const part of run.records ?? []) {
      checked++;
      parts++;
      const r = await safeValidateUIMessages({ messages: [{ id: 'm', role: 'assistant', parts: [part] }] });
      if (!r.success) failures.push(`${rel}: ${form} part ${part.toolCallId}: ${String(r.error).slice(0, 300)}`);
      // The validator drops keys it does not know: what it returns must be the whole part.
      else if (canonical(plain(r.data[0].parts[0])) !== canonical(part)) failures.push(`${rel}: ${form} part ${part.toolCallId} has keys ai@${aiVersion} does not know`);
    }
  }
  if (stream.error) {
    failures.push(`${rel}: --to ai-sdk-stream: ${stream.error}`);
    continue;
  }
  if (uiMessageChunkSchema) {
    for (const chunk of stream.records) {
      checked++;
      chunksChecked++;
      const r = await utils.safeValidateTypes({ value: chunk, schema: uiMessageChunkSchema });
      if (!r.success) failures.push(`${rel}: chunk ${JSON.stringify(chunk).slice(0, 160)}: ${String(r.error).slice(0, 200)}`);
    }
  }
  checked++;
  try {
    const message = await readBack(stream.records);
    const streamed = new Map(plain(message?.parts ?? []).map((p) => [p.toolCallId, p]));
    for (const part of dynamic.records) {
      const got = streamed.get(part.toolCallId);
      if (part.state === 'output-denied') {
        // The CLI streams the AI SDK 6 form, which both majors read: a denial arrives as the error
        // it also is (docs/outputs.md#ai-sdk-7), with the same call and input.
        if (got?.state !== 'output-error' || canonical(got.input) !== canonical(part.input)) failures.push(`${rel}: streamed denial ${part.toolCallId} is not an output-error of the same input: ${JSON.stringify(got).slice(0, 200)}`);
        continue;
      }
      // Nor has the AI SDK 6 form a chunk for a granted answer: the outcome arrives without its
      // `approval`, and the rest is the part exactly (the version 7 form below carries it).
      const want = part.approval?.approved === true ? (({ approval: _a, ...rest }) => rest)(part) : part;
      if (canonical(got) !== canonical(want)) failures.push(`${rel}: streamed part ${part.toolCallId} differs from --to ai-sdk: ${JSON.stringify(got).slice(0, 200)}`);
    }
    // What an app storing useChat messages does: the rebuilt message validates again.
    if (message) {
      checked++;
      const again = await safeValidateUIMessages({ messages: [plain(message)] });
      if (!again.success) failures.push(`${rel}: the message read back from the stream does not validate: ${String(again.error).slice(0, 300)}`);
    }
  } catch (err) {
    failures.push(`${rel}: readUIMessageStream: ${err.message}`);
  }
  // AI SDK 7 also reads its own form (--ai-sdk-version 7): a denial streams as the approval request,
  // its refusal and tool-output-denied, and must rebuild exactly as --to ai-sdk prints it.
  if (String(aiVersion).startsWith('7.')) {
    const v7 = normalize(file, 'ai-sdk-stream', ['--ai-sdk-version', '7']);
    if (v7.error) {
      failures.push(`${rel}: --to ai-sdk-stream --ai-sdk-version 7: ${v7.error}`);
      continue;
    }
    for (const chunk of v7.records) {
      checked++;
      chunksChecked++;
      const r = await utils.safeValidateTypes({ value: chunk, schema: uiMessageChunkSchema });
      if (!r.success) failures.push(`${rel}: v7 chunk ${JSON.stringify(chunk).slice(0, 160)}: ${String(r.error).slice(0, 200)}`);
    }
    checked++;
    try {
      const message = await readBack(v7.records);
      const streamed = new Map(plain(message?.parts ?? []).map((p) => [p.toolCallId, p]));
      for (const part of dynamic.records) {
        if (canonical(streamed.get(part.toolCallId)) !== canonical(part)) failures.push(`${rel}: v7 streamed part ${part.toolCallId} differs from --to ai-sdk: ${JSON.stringify(streamed.get(part.toolCallId)).slice(0, 200)}`);
      }
      if (message) {
        checked++;
        const again = await safeValidateUIMessages({ messages: [plain(message)] });
        if (!again.success) failures.push(`${rel}: the v7 message read back does not validate: ${String(again.error).slice(0, 300)}`);
      }
    } catch (err) {
      failures.push(`${rel}: v7 readUIMessageStream: ${err.message}`);
    }
  }
}

for (const f of failures.slice(0, 40)) process.stderr.write(`${f}\n`);
if (failures.length > 40) process.stderr.write(`… and ${failures.length - 40} more\n`);
console.log(`ai@${aiVersion} on Node ${process.versions.node}: ${detected} recordings, ${parts} parts, ${chunksChecked} chunks${uiMessageChunkSchema ? '' : ' (this ai has no uiMessageChunkSchema: chunks read back only)'}`);
if (!detected) {
  process.stderr.write('ai-sdk-validate: no recording was found\n');
  process.exit(1);
}
console.log(`ai-sdk-validate: ${checked - failures.length} passed, ${failures.length} failed`);
process.exit(failures.length ? 1 : 0);
