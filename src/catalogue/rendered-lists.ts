import type { AuthenticatedRequest } from '../auth/request-context';
import { ListVersion, RenderedListCache } from '../common/listing/rendered-list-cache';
import type { Event } from '../organizers/event.entity';

/**
 * The version of an event's catalogue lists: the event id and its `catalogue_version`, which database triggers
 * bump with every write to items, variations, add-ons, bundles, categories and tax rules (migration
 * CatalogueVersion). Read with the event in the request's credential statement, so it costs no statement.
 */
export const catalogueVersion: ListVersion = (req) => {
  const event = (req as AuthenticatedRequest).access?.event as Event | undefined;
  return event?.catalogueVersion === undefined ? null : `event ${event.id} v${event.catalogueVersion}`;
};

/**
 * Caches the rendered pages of a list that shows only catalogue tables (see {@link catalogueVersion}); place it
 * above `@ConditionalList(...)` so the conditional check (304/412) runs first.
 */
export const CatalogueListCache = () => RenderedListCache(catalogueVersion);
