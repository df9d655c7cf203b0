import { ApiI18n, ApiInt } from '../../common/http/api-schemas';
import type { I18nString } from '../../common/values/i18n';
import type { SalesChannel } from './sales-channel.entity';

/** Wire form of a sales channel (pretix `SalesChannelSerializer`: `identifier`, `type`, `label`, `position`). */
export class SalesChannelJson {
  identifier!: string;
  type!: string;
  @ApiI18n()
  label!: I18nString;
  @ApiInt()
  position!: number;
}

/** Entity to wire object, field by field. */
export function toSalesChannelJson(c: SalesChannel): SalesChannelJson {
  return { identifier: c.identifier, type: c.type, label: c.label, position: c.position };
}
