import type { Organizer } from './organizer.entity';

/** Wire form of an organizer (compat §4.1). */
export class OrganizerJson {
  name!: string;
  slug!: string;
}

export function toOrganizerJson(organizer: Organizer): OrganizerJson {
  return { name: organizer.name, slug: organizer.slug };
}
