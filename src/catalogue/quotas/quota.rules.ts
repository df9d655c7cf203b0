/** Messages of the quota cross-field rules (compat §3.14), answered as `non_field_errors`. */
export const QUOTA_RULES = {
  variationOutsideItems: 'All variations must belong to an item contained in the items list.',
  foreignItems: 'One or more items do not belong to this event.',
  variationsMissing: 'One or more items has variations but none of these are in the variations list.',
  subeventRequired: 'Subevent cannot be null for event series.',
  subeventWithoutSeries: 'The subevent does not belong to a event series.',
} as const;

/** An item a quota refers to, as far as the rules need it. */
export interface QuotaItemRef {
  id: number;
  eventId: number;
  hasVariations: boolean;
}

/** A variation a quota refers to: its id and the id of its item. */
export interface QuotaVariationRef {
  id: number;
  itemId: number;
}

/** The merged (stored + sent) references of a quota that the rules check. */
export interface QuotaReferences {
  items: readonly number[];
  variations: readonly number[];
  subevent: number | null;
}

/**
 * The first cross-field rule the merged data breaks, in pretix's order (variations, then items, then
 * sub-event), or null when all hold (compat §3.14). Ids must already be known to exist (unknown ones are field
 * errors, reported before these rules run).
 * @param items the known items by id (any event of the organizer)
 * @param variations the known variations by id
 */
export function quotaRuleViolation(
  event: { id: number; hasSubevents: boolean },
  input: QuotaReferences,
  items: ReadonlyMap<number, QuotaItemRef>,
  variations: ReadonlyMap<number, QuotaVariationRef>,
): string | null {
  const itemIds = new Set(input.items);
  const listed = input.variations.map((id) => variations.get(id)).filter((v) => v !== undefined);
  if (listed.some((v) => !itemIds.has(v.itemId))) return QUOTA_RULES.variationOutsideItems;
  for (const id of input.items) {
    const item = items.get(id);
    if (!item) continue;
    if (item.eventId !== event.id) return QUOTA_RULES.foreignItems;
    if (item.hasVariations && !listed.some((v) => v.itemId === item.id)) return QUOTA_RULES.variationsMissing;
  }
  if (event.hasSubevents && input.subevent === null) return QUOTA_RULES.subeventRequired;
  if (!event.hasSubevents && input.subevent !== null) return QUOTA_RULES.subeventWithoutSeries;
  return null;
}
