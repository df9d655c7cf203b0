import { ApiProperty } from '@nestjs/swagger';
import type { Shredder } from './shredders';

/** One shredder (compat §3.8). */
export class ShredderJson {
  identifier!: string;
  verbose_name!: string;
}

/** The pseudo-paginated list of `GET E/shredders/`. */
export class ShredderListJson {
  count!: number;
  @ApiProperty({ type: 'string', nullable: true, example: null })
  next!: null;
  @ApiProperty({ type: 'string', nullable: true, example: null })
  previous!: null;
  @ApiProperty({ type: [ShredderJson] })
  results!: ShredderJson[];
}

/** 202 answer of `export/`: absolute URLs of the download and of the shred. */
export class ShredderExportJson {
  download!: string;
  shred!: string;
}

/** 202 answer of `shred/`: the absolute status URL. */
export class ShredStartedJson {
  status!: string;
}

/** 200 answer of `status/`. */
export class ShredStatusJson {
  @ApiProperty({ enum: ['ok'] })
  status!: 'ok';
  message!: string;
}

export function toShredderJson(s: Shredder): ShredderJson {
  return { identifier: s.identifier, verbose_name: s.verbose_name };
}
