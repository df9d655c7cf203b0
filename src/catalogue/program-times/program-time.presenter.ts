import { isoUtc } from '../../common/values/datetime';
import type { I18nString } from '../../common/values/i18n';
import { ApiDateTime, ApiI18n, ApiInt } from '../../common/http/api-schemas';
import type { ItemProgramTime } from './item-program-time.entity';

/** Wire form of a program time as an item lists it inline (pretix's inline form has no `id`). */
export class InlineProgramTimeJson {
  @ApiDateTime()
  start!: string;
  @ApiDateTime()
  end!: string;
  @ApiI18n({ nullable: true })
  location!: I18nString | null;
}

/** Wire form of a program time (`E/items/{item}/program_times/`). Datetimes UTC ISO 8601. */
export class ProgramTimeJson extends InlineProgramTimeJson {
  @ApiInt()
  id!: number;
}

/** Entity to the inline wire object (an item's `program_times`). */
export function toInlineProgramTimeJson(p: ItemProgramTime): InlineProgramTimeJson {
  return { start: isoUtc(p.startsAt), end: isoUtc(p.endsAt), location: p.location };
}

/** Entity to wire object, field by field. */
export function toProgramTimeJson(p: ItemProgramTime): ProgramTimeJson {
  return { id: p.id, ...toInlineProgramTimeJson(p) };
}
