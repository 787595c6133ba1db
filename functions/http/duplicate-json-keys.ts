/**
 * The first key that occurs twice in one object of a JSON text, or undefined. JSON.parse keeps
 * the last of duplicate keys without a word, so `{"quantity": 1, "quantity": 2}` would mean 2
 * here and 1 to a parser that keeps the first: an ambiguous body is refused rather than guessed.
 * Meant for text that JSON.parse accepted; one pass, no recursion, so nesting depth costs no stack.
 */
export function findDuplicateKey(text: string): string | undefined {
  /** One entry per open container: the keys seen in an object, null for an array. */
  const open: (Set<string> | null)[] = [];
  let expectingKey = false;
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index];
    if (char === '"') {
      let end = index + 1;
      while (end < text.length && text[end] !== '"') end += text[end] === '\\' ? 2 : 1;
      const keys = open.at(-1);
      if (keys && expectingKey) {
        // Escapes are resolved, so "a" and "\u0061" are the same key.
        const key = JSON.parse(text.slice(index, end + 1)) as string;
        if (keys.has(key)) return key;
        keys.add(key);
        expectingKey = false;
      }
      index = end;
    } else if (char === '{') {
      open.push(new Set());
      expectingKey = true;
    } else if (char === '[') {
      open.push(null);
      expectingKey = false;
    } else if (char === '}' || char === ']') {
      open.pop();
      expectingKey = false;
    } else if (char === ',') {
      expectingKey = open.at(-1) instanceof Set;
    }
  }
  return undefined;
}
