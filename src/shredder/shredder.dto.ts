import { IsStrList, Required, rule } from '../common/validation/fields';
import { SHREDDERS } from './shredders';

/** Body of `POST E/shredders/export/` (compat §3.8). */
export class ShredderExportDto {
  /** Identifiers of the shredders to run (at least one); unknown: `"x" is not a valid choice.` */
  @Required()
  @IsStrList(SHREDDERS.map((s) => s.identifier))
  @rule('notEmpty', (v) => (Array.isArray(v) && v.length === 0 ? 'This list may not be empty.' : null))
  shredders!: string[];
}
