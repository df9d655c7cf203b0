import { ApiProperty } from '@nestjs/swagger';
import type { Organizer } from './organizer.entity';
import { ORGANIZER_PLUGINS } from './plugins';

/** Wire form of an organizer (compat §4.1; pretix `OrganizerSerializer`). */
export class OrganizerJson {
  name!: string;
  slug!: string;
  /** The public shop page of the organizer: `<SITE_URL>/<slug>/` (read-only). */
  @ApiProperty({ type: 'string', format: 'uri' })
  public_url!: string;
  /** Package names of the organizer-level plugins (always the same list, see README). */
  plugins!: string[];
}

/** @param siteUrl the configured `SITE_URL` (no trailing slash) */
export function toOrganizerJson(organizer: Organizer, siteUrl: string): OrganizerJson {
  return {
    name: organizer.name,
    slug: organizer.slug,
    public_url: `${siteUrl}/${organizer.slug}/`,
    plugins: [...ORGANIZER_PLUGINS],
  };
}
