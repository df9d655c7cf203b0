import { createHmac, randomBytes } from 'crypto';

/** A new signing secret: `whsec_` followed by base64 of 24 random bytes (Standard Webhooks). */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(24).toString('base64')}`;
}

/** The secret as lists and details show it: prefix and last four characters, the rest masked. */
export function maskSecret(secret: string): string {
  return `whsec_${'*'.repeat(8)}${secret.slice(-4)}`;
}

/**
 * The Standard Webhooks signature header value: `v1,` + base64 HMAC-SHA256 of `<id>.<timestamp>.<body>`, keyed
 * with the base64-decoded part of the secret after `whsec_`.
 * @param timestamp Unix seconds of this attempt (the `webhook-timestamp` header)
 */
export function signWebhook(secret: string, id: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const mac = createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64');
  return `v1,${mac}`;
}
