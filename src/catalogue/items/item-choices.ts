/**
 * `available_from_mode` / `available_until_mode` of items and variations: hide the product outside its
 * availability window, or show it as information (compat §3.10, §3.11). Kept apart from the DTOs so that item and
 * variation DTOs can both use it without importing each other.
 */
export const AVAILABILITY_MODES = ['hide', 'info'] as const;
