import { ApiInt } from '../../common/http/api-schemas';
import type { EventMetaProperty } from './event-meta-property.entity';

/** Wire form of an event meta-data property. */
export class EventMetaPropertyJson {
  @ApiInt()
  id!: number;
  name!: string;
  default!: string;
  /** Allowed values; null: any value. */
  allowed_values!: string[] | null;
  protected!: boolean;
}

/** Entity to wire object, field by field. */
export function toEventMetaPropertyJson(p: EventMetaProperty): EventMetaPropertyJson {
  return {
    id: p.id,
    name: p.name,
    default: p.default,
    allowed_values: p.allowedValues,
    protected: p.protected,
  };
}
