/**
 * Invoice transmission settings of an invoice address (pretix 2025.6, compat §4.4 `invoice_address`): the
 * transmission types this service has and the check of `transmission_info`. Only pretix's core type `email` exists
 * (its provider `email_pdf` mails the invoice PDF); pretix's plugin types (e.g. PEPPOL) are unknown here.
 */

/** Transmission types an invoice address may name. */
export const TRANSMISSION_TYPES = ['email'] as const;

/** The `email` type's `transmission_info` keys (pretix's form fields of EmailTransmissionType). */
const EMAIL_INFO_KEYS = ['transmission_email_other', 'transmission_email_address'] as const;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * Why a `transmission_info` object is refused (null when it is acceptable): `transmission_email_other` must be a
 * boolean, `transmission_email_address` a valid e-mail address (or empty).
 */
export function transmissionInfoError(v: unknown): string | null {
  if (v === undefined || v === null || typeof v !== 'object' || Array.isArray(v)) return null;
  const info = v as Record<string, unknown>;
  const other = info.transmission_email_other;
  if (other !== undefined && typeof other !== 'boolean')
    return 'transmission_email_other: Must be a valid boolean.';
  const address = info.transmission_email_address;
  if (address !== undefined && address !== null && address !== '') {
    if (typeof address !== 'string' || !EMAIL.test(address) || address.length > 254)
      return 'transmission_email_address: Enter a valid email address.';
  }
  return null;
}

/**
 * The stored form of `transmission_info`: only the type's known keys (others are dropped, as pretix's serializer
 * drops them); `{}` when nothing is sent.
 */
export function transmissionInfoValues(
  info: Record<string, unknown> | undefined,
): Record<string, string | boolean> {
  const out: Record<string, string | boolean> = {};
  for (const key of EMAIL_INFO_KEYS) {
    const v = info?.[key];
    if (typeof v === 'string' || typeof v === 'boolean') out[key] = v;
  }
  return out;
}
