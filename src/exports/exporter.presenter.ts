import { ApiProperty } from '@nestjs/swagger';
import { ApiInt } from '../common/http/api-schemas';
import type { ExporterDeclaration, ExportLevel } from '../tasks/exporter';
import { describeExportForm } from './export-forms.rules';

/** One input parameter of an exporter (pretix's `SerializerDescriptionField`). */
export class ExporterInputParameterJson {
  name!: string;
  required!: boolean;
  /** Only for choice fields (`_format`). */
  @ApiProperty({ type: [String], required: false })
  choices?: string[];
}

/** One exporter (compat "Data exporters"): identifier, name and its form's parameters in order. */
export class ExporterJson {
  identifier!: string;
  verbose_name!: string;
  @ApiProperty({ type: [ExporterInputParameterJson] })
  input_parameters!: ExporterInputParameterJson[];
}

/** The pseudo-paginated list of `GET …/exporters/` (every exporter on one page, as pretix). */
export class ExporterListJson {
  @ApiInt()
  count!: number;
  @ApiProperty({ type: 'string', nullable: true, example: null })
  next!: null;
  @ApiProperty({ type: 'string', nullable: true, example: null })
  previous!: null;
  @ApiProperty({ type: [ExporterJson] })
  results!: ExporterJson[];
}

/** 202 answer of `…/exporters/{identifier}/run/`: the absolute download URL. */
export class ExportStartedJson {
  download!: string;
}

/** 409 body of the download while the export runs (pretix: `percentage` may be null). */
export class ExportPendingJson {
  @ApiProperty({ enum: ['waiting', 'running'] })
  status!: 'waiting' | 'running';
  @ApiProperty({ type: 'integer', nullable: true })
  percentage!: number | null;
}

/** 410 body of the download of a failed export. */
export class ExportFailedJson {
  @ApiProperty({ enum: ['failed'] })
  status!: 'failed';
  message!: string;
}

/** An exporter's wire form at a level. */
export function toExporterJson(e: ExporterDeclaration, level: ExportLevel): ExporterJson {
  return {
    identifier: e.identifier,
    verbose_name: e.verboseName,
    input_parameters: describeExportForm(e, level),
  };
}
