/**
 * A resource made once per test file: opened in beforeAll, closed in afterAll, and used through a
 * stand-in that reads the real one, so a file writes `const t = useTestDb()` instead of a `let`
 * and two hooks. vitest runs after-hooks in reverse ("stack"), so a resource declared first is
 * closed last, after what the file built on it.
 */
import { afterAll, beforeAll } from 'vitest';

export function perFile<T extends object>(
  what: string,
  open: () => Promise<T>,
  close: (value: T) => Promise<unknown>,
  timeoutMs?: number,
): T {
  let value: T | undefined;
  beforeAll(async () => {
    value = await open();
  }, timeoutMs);
  afterAll(async () => {
    if (value) await close(value);
  });
  const real = (): T => {
    if (!value) throw new Error(`${what} is made in beforeAll: use it inside a test or a hook`);
    return value;
  };
  return new Proxy({} as T, {
    get: (_, key) => {
      const v = Reflect.get(real(), key);
      return typeof v === 'function' ? v.bind(real()) : v;
    },
    has: (_, key) => key in real(),
    ownKeys: () => Reflect.ownKeys(real()),
    getOwnPropertyDescriptor: (_, key) => {
      const d = Reflect.getOwnPropertyDescriptor(real(), key);
      return d && { ...d, configurable: true };
    },
  });
}
