import { isEmail } from 'class-validator';

/** Most addresses one `mail_additional_recipients*` field may hold (compat §3.7). */
export const MAX_RECIPIENTS = 25;

/** The addresses of a comma-separated recipients field, spaces stripped, empty parts dropped. */
export function recipientsOf(value: string): string[] {
  return value
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p !== '');
}

/**
 * Cleans a `mail_additional_recipients*` value (compat §3.7): spaces stripped, every address valid
 * (`Enter a valid email address.`), at most {@link MAX_RECIPIENTS} (`Please enter less than 25 recipients.`).
 * @returns the stored value (`a@x.org,b@y.org`, or `""`), or the error message
 */
export function cleanRecipients(value: unknown): { value: string } | { error: string } {
  if (typeof value !== 'string') return { error: 'Not a valid string.' };
  const list = recipientsOf(value);
  if (list.length > MAX_RECIPIENTS) return { error: `Please enter less than ${MAX_RECIPIENTS} recipients.` };
  if (list.some((a) => !isEmail(a))) return { error: 'Enter a valid email address.' };
  return { value: list.join(',') };
}
