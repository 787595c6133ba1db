/**
 * Reads a JSON array from a byte stream one element at a time: each element is parsed as soon
 * as its text is complete, and the text is then dropped. A listing of any size is held once,
 * as the parsed array, never also as one string of the whole body (which for a million pets
 * is some 50 MB before parsing).
 *
 * The service streams the listing and, when it fails midway, ends the stream without the
 * closing bracket: that is reported as a SyntaxError, as JSON.parse would report the same text,
 * never as a shorter array. A transfer that breaks off rejects with fetch's own error.
 */

const Char = {
  Quote: 0x22,
  Comma: 0x2c,
  Backslash: 0x5c,
  OpenBracket: 0x5b,
  CloseBracket: 0x5d,
  OpenBrace: 0x7b,
  CloseBrace: 0x7d,
} as const;

const isWhitespace = (code: number) => code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09;

/** Splits the text of one JSON array into its elements' texts, whatever the chunks it arrives in. */
class ArraySplitter {
  private state: 'before' | 'inside' | 'after' = 'before';
  /** Nesting inside the current element: its own objects and arrays. */
  private depth = 0;
  private inString = false;
  private escaped = false;
  /** The current element's text from earlier chunks. */
  private pieces: string[] = [];
  private elements = 0;
  private afterComma = false;

  constructor(private readonly onElement: (text: string) => void) {}

  push(chunk: string): void {
    let start = 0;
    for (let index = 0; index < chunk.length; index += 1) {
      const code = chunk.charCodeAt(index);
      if (this.state !== 'inside') {
        if (isWhitespace(code)) continue;
        if (this.state === 'before' && code === Char.OpenBracket) {
          this.state = 'inside';
          start = index + 1;
          continue;
        }
        throw new SyntaxError(
          `Unexpected character ${JSON.stringify(chunk[index])} ${this.state === 'before' ? 'before' : 'after'} the JSON array.`,
        );
      }
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (code === Char.Backslash) this.escaped = true;
        else if (code === Char.Quote) this.inString = false;
      } else if (code === Char.Quote) {
        this.inString = true;
      } else if (code === Char.OpenBrace || code === Char.OpenBracket) {
        this.depth += 1;
      } else if (this.depth > 0 && (code === Char.CloseBrace || code === Char.CloseBracket)) {
        this.depth -= 1;
      } else if (this.depth === 0 && (code === Char.Comma || code === Char.CloseBracket)) {
        this.endElement(this.pieces.join('') + chunk.slice(start, index), code === Char.CloseBracket);
        this.pieces = [];
        start = index + 1;
      }
    }
    if (this.state === 'inside') this.pieces.push(chunk.slice(start));
  }

  end(): void {
    if (this.state !== 'after') throw new SyntaxError('Unexpected end of the JSON array: the answer was cut before its closing bracket.');
  }

  private endElement(text: string, closing: boolean): void {
    const empty = text.trim() === '';
    // Only "[]" may close on nothing; "[,", ",," and ",]" are not JSON.
    if (empty && !(closing && this.elements === 0 && !this.afterComma))
      throw new SyntaxError('Unexpected comma or bracket in the JSON array.');
    if (!empty) {
      this.onElement(text);
      this.elements += 1;
    }
    this.afterComma = !closing;
    if (closing) this.state = 'after';
  }
}

/** The array the stream holds, each element given to `parseElement` (JSON.parse with a reviver, say) as soon as it is complete. */
export async function readJsonArray<T>(body: ReadableStream<Uint8Array>, parseElement: (text: string) => T): Promise<T[]> {
  const elements: T[] = [];
  const splitter = new ArraySplitter((text) => elements.push(parseElement(text)));
  // A reader loop rather than `for await`: browsers without async-iterable streams run it too.
  const reader = body.getReader();
  const decoder = new TextDecoder();
  for (let read = await reader.read(); !read.done; read = await reader.read()) splitter.push(decoder.decode(read.value, { stream: true }));
  splitter.push(decoder.decode());
  splitter.end();
  return elements;
}
