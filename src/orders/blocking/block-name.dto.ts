import { IsStr, Required } from '../../common/validation/fields';

/** pretix's block names the API may set: `admin`, or `api:` followed by letters, digits, `.` and `_`. */
export const BLOCK_NAME = /^(admin|api:[a-zA-Z0-9._]+)$/;

/**
 * Body of `POST E/orderpositions/{id}/add_block/` and `…/remove_block/` (pretix "Order position endpoints"):
 * `{"name": "admin"}`. Missing → `{"name": ["This field is required."]}`, another name →
 * `{"name": ["Enter a valid value."]}`.
 */
export class BlockNameDto {
  /** Name of the block: `admin`, or `api:<name>` (letters, digits, `.`, `_`). */
  @Required()
  @IsStr({ blank: false, max: 190, pattern: BLOCK_NAME })
  name!: string;
}
