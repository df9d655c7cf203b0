import { ORGANIZER_SETTINGS, ORGANIZER_SETTING_KEYS } from './organizer-settings.schema';

/** The wire object of `O/settings/`: every key, the stored value or else the default. */
export function effectiveOrganizerSettings(stored: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of ORGANIZER_SETTING_KEYS) {
    out[key] = key in stored ? stored[key] : ORGANIZER_SETTINGS[key].default;
  }
  return out;
}

/** `?explain=true`: each key as `{value, label, help_text, readonly}` (pretix `OrganizerSettingsView.get`). */
export function explainOrganizerSettings(
  values: Record<string, unknown>,
): Record<string, { value: unknown; label: string; help_text: string | null; readonly: boolean }> {
  const out: Record<string, { value: unknown; label: string; help_text: string | null; readonly: boolean }> =
    {};
  for (const key of ORGANIZER_SETTING_KEYS) {
    const spec = ORGANIZER_SETTINGS[key];
    out[key] = { value: values[key], label: spec.label, help_text: spec.help_text ?? null, readonly: false };
  }
  return out;
}

/**
 * The stored settings after a PATCH body (already validated): sent keys with a value are set (normalized),
 * sent nulls are removed (back to the default), unknown keys ignored.
 * @returns the new stored object and the changes to log (key -> value sent, null for a reset)
 */
export function applyOrganizerSettings(
  stored: Record<string, unknown>,
  body: Record<string, unknown>,
): { values: Record<string, unknown>; changes: Record<string, unknown> } {
  const values = { ...stored };
  const changes: Record<string, unknown> = {};
  for (const key of ORGANIZER_SETTING_KEYS) {
    if (!(key in body) || body[key] === undefined) continue;
    const v = body[key];
    if (v === null) {
      delete values[key];
    } else {
      const normalize = ORGANIZER_SETTINGS[key].normalize;
      values[key] = normalize ? normalize(v) : v;
    }
    changes[key] = v === null ? null : values[key];
  }
  return { values, changes };
}
