/** What decides whether an event may be shredded (compat §3.8 `shred_constraints`). */
export interface ShreddableEvent {
  live: boolean;
  /** When the event (or its last active date) ends: its end, else its start. */
  lastEnd: Date;
}

export const EVENT_NOT_OVER = 'Your event needs to be over to use this feature.';
export const SHOP_LIVE = 'Your ticket shop needs to be offline to use this feature.';

/** The reason the event may not be shredded yet, or null. */
export function shredConstraint(event: ShreddableEvent, now = new Date()): string | null {
  if (event.lastEnd >= now) return EVENT_NOT_OVER;
  if (event.live) return SHOP_LIVE;
  return null;
}
