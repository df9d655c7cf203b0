import { ApiInt } from '../../common/http/api-schemas';
import type { ItemMetaProperty } from './item-meta-property.entity';

/** Wire form of an item meta property (pretix "Item meta properties"). */
export class ItemMetaPropertyJson {
  @ApiInt()
  id!: number;
  name!: string;
  default!: string;
  required!: boolean;
  /** Allowed values (an empty list when stored empty); null: any value. */
  allowed_values!: string[] | null;
}

/** The stored lines of `allowed_values` as pretix lists them (each line trimmed). */
export function allowedValuesOf(stored: string | null): string[] | null {
  if (stored === null) return null;
  const lines = stored.split(/\r\n|\r|\n/);
  if (lines[lines.length - 1] === '') lines.pop();
  return lines.map((line) => line.trim());
}

/** Entity to wire object, field by field. */
export function toItemMetaPropertyJson(p: ItemMetaProperty): ItemMetaPropertyJson {
  return {
    id: p.id,
    name: p.name,
    default: p.default,
    required: p.required,
    allowed_values: allowedValuesOf(p.allowedValues),
  };
}
