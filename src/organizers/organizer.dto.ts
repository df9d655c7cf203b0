import { ApiProperty } from '@nestjs/swagger';
import { Optional, rule } from '../common/validation/fields';

/**
 * Body of `PATCH O/` (pretix: only `plugins` may change; `name`, `slug`, `public_url` are read-only and ignored).
 * The list is checked by the service with pretix's messages.
 */
export class UpdateOrganizerDto {
  @Optional()
  @rule('isList', (v) =>
    v === undefined || Array.isArray(v) ? null : `Expected a list of items but got type "${typeof v}".`,
  )
  @ApiProperty({ type: 'array', items: { type: 'string' }, required: false })
  plugins?: string[];
}
