import { PartialType } from '@nestjs/swagger';
import { IsInteger, IsMoney, Nullable, Optional, Required } from '../../common/validation/fields';

/**
 * Body of `POST E/items/{item}/bundles/`, `PUT E/items/{item}/bundles/{id}/` and of each entry of an item's inline
 * `bundles` on create (spec "Item bundle"; compat §3.13).
 */
export class CreateBundleDto {
  /** Id of an item of the same event, other than the bundling one, without bundles of its own. */
  @Required()
  @IsInteger()
  bundled_item!: number;

  /** Id of a variation of `bundled_item`; required when that item has variations, else null. */
  @Nullable()
  @IsInteger()
  bundled_variation?: number | null;

  /** Number of bundled products included (default 1). */
  @Optional()
  @IsInteger({ min: 1 })
  count?: number;

  /**
   * Money string (default `"0.00"`): the part of the base price attributed to the bundled product (for example
   * for mixed taxation); not added to the price.
   */
  @Optional()
  @IsMoney({ min: 0 })
  designated_price?: string | number;
}

/** Body of `PATCH E/items/{item}/bundles/{id}/`: every field optional; null only for `bundled_variation`. */
export class UpdateBundleDto extends PartialType(CreateBundleDto, { skipNullProperties: false }) {}
