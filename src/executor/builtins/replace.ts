// Exact-string replacement whose memory does not grow with the number of matches. The obvious
// `text.split(old).join(new)` (and V8's own replaceAll) hold every piece at once: a 4 MB file with
// a one-character `old` took 789 MB. Here matches are counted first (so the result size is known
// and can be refused before anything is built), then the result is written straight into one
// buffer of exactly that size.

/** Non-overlapping occurrences of `needle`, scanning left to right (the ones replaced). */
export function countOccurrences(text: string, needle: string): number {
  let n = 0;
  for (let i = text.indexOf(needle); i !== -1; i = text.indexOf(needle, i + needle.length)) n++;
  return n;
}

/** UTF-8 size of the result of replacing `count` occurrences in a text of `textBytes` bytes. */
export function replacedBytes(textBytes: number, count: number, oldText: string, newText: string): number {
  return textBytes + count * (Buffer.byteLength(newText, 'utf8') - Buffer.byteLength(oldText, 'utf8'));
}

/**
 * Every occurrence of `oldText` replaced by `newText`, as UTF-8 bytes. `size` is
 * replacedBytes(Buffer.byteLength(text), countOccurrences(text, oldText), oldText, newText).
 */
export function replaceIntoBuffer(text: string, oldText: string, newText: string, size: number): Buffer {
  const out = Buffer.allocUnsafe(size);
  const replacement = Buffer.from(newText, 'utf8');
  let off = 0;
  let from = 0;
  for (let i = text.indexOf(oldText); i !== -1; i = text.indexOf(oldText, from)) {
    off += out.write(text.slice(from, i), off, 'utf8');
    off += replacement.copy(out, off);
    from = i + oldText.length;
  }
  off += out.write(text.slice(from), off, 'utf8');
  // A mismatch would mean a truncated write: refuse rather than write a cut file.
  if (off !== size) throw new Error(`the replaced text is ${off} bytes, not the ${size} computed`);
  return out;
}

/** The same replacement as a string, for pieces small enough that their parts fit anywhere. */
export function replaceInString(text: string, oldText: string, newText: string): string {
  if (text.length <= 64 * 1024) return text.split(oldText).join(newText);
  const size = replacedBytes(Buffer.byteLength(text, 'utf8'), countOccurrences(text, oldText), oldText, newText);
  return replaceIntoBuffer(text, oldText, newText, size).toString('utf8');
}
