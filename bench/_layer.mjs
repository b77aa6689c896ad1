// One layer of `toolnorm normalize --from claude --to acp`, run as a whole process of its own by
// `npm run bench -- peer --layers` (plain JavaScript, so no transpiler's start-up is counted):
// start-up, module loading and JIT count, as they do for the CLI. Each layer does everything the
// one before it does, plus one stage, and throws its records away instead of writing them:
//   parse    load the built package, read every line with toolnorm's reader and JSON.parse it
//   adapter  + the Claude adapter (the parse is its own; events are counted and dropped)
//   events   + the pipeline: each event checked against the contract and reduced
//   acp      + the ACP encoder and the frame checks (frames counted, not serialized)
// The bench's start-up side is the CLI itself on an empty file, and its CLI run is `acp` plus
// serializing and writing the frames.
// Usage: node --import bench/_report-usage.mjs bench/_layer.mjs LAYER FILE (fd 3 receives the usage).
import { createReadStream, writeSync } from 'node:fs';

const [layer, file] = process.argv.slice(2);
const core = await import(new URL('../dist/src/index.js', import.meta.url).href);
let records = 0;
{
  const lines = core.readLines(createReadStream(file, { highWaterMark: 1024 * 1024 } /* the CLI's read size */));
  if (layer === 'parse') {
    for await (const { text } of lines) {
      if (!text.trim()) continue;
      try { if (JSON.parse(text)) records++; } catch { /* a malformed line costs its failed parse */ }
    }
  } else if (layer === 'adapter') {
    const adapter = core.adapterById('claude').create({ event: () => { records++; }, diagnostic: () => {}, unrecognized: () => {} }, {});
    // File boundaries as the CLI gives them: an adapter may read the file's name.
    adapter.beginFile?.(file);
    for await (const l of lines) adapter.line(l.text, { line: l.line, offset: l.offset });
    adapter.endFile?.(file);
    adapter.end();
  } else if (layer === 'events' || layer === 'acp') {
    const pipeline = new core.NormalizePipeline(core.adapterById('claude'), { to: layer }, { output: () => { records++; }, diagnostic: () => {} });
    pipeline.beginFile(file);
    for await (const l of lines) pipeline.line(l.text, { line: l.line, offset: l.offset, file });
    pipeline.endFile(file);
    pipeline.end();
  } else {
    throw new Error(`unknown layer ${layer}`);
  }
  if (!records) throw new Error(`layer ${layer} produced nothing from ${file}`);
}
writeSync(1, `${JSON.stringify({ records })}\n`);
