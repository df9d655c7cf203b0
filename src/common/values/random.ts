import { randomInt } from 'crypto';

/**
 * A random string of `length` characters drawn uniformly from `alphabet`, from the operating system's
 * cryptographic source (secrets, tokens, codes and generated identifiers all come from here).
 */
export function randomString(alphabet: string, length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) out += alphabet[randomInt(alphabet.length)];
  return out;
}
