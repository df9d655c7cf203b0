// Generated from openapi.json by `npm run sdk:generate`; do not edit.

/** Query parameters whose lists are sent comma-separated (`style: form`, `explode: false`). */
export const COMMA_SEPARATED_QUERY: ReadonlySet<string> = new Set([
  'item__in',
  'items__in',
  'order__status__in',
  'ordering',
  'status__in',
  'subevent__in',
  'tax_rule__in',
  'variation__in',
]);
