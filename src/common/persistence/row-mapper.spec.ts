import { Column, CreateDateColumn, DataSource, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { SnakeNamingStrategy } from 'typeorm-naming-strategies';
import { RowMapper } from './row-mapper';

@Entity('sample')
class Sample {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: 'numeric', precision: 13, scale: 2 })
  defaultPrice!: string;

  @Column({ type: 'timestamptz', nullable: true })
  availableFrom!: Date | null;

  @Column({ type: 'date' })
  validOn!: string;

  @Column({ type: 'jsonb' })
  name!: Record<string, string>;

  @CreateDateColumn({ type: 'timestamptz' })
  created!: Date;
}

describe('RowMapper', () => {
  // Metadata only: the data source is built, never connected.
  const ds = new DataSource({
    type: 'postgres',
    entities: [Sample],
    namingStrategy: new SnakeNamingStrategy(),
  });
  let mapper: RowMapper<Sample>;

  beforeAll(async () => {
    // Builds the entity metadata without connecting (protected in TypeORM's typings).
    await (ds as unknown as { buildMetadatas(): Promise<void> }).buildMetadatas();
    mapper = RowMapper.of<Sample>(ds.getMetadata(Sample));
  });

  it('selects the columns under the property names and builds JSON with numerics as text', () => {
    expect(mapper.selectSql('s')).toBe(
      's."id" AS "id", s."default_price" AS "defaultPrice", s."available_from" AS "availableFrom", ' +
        's."valid_on" AS "validOn", s."name" AS "name", s."created" AS "created"',
    );
    expect(mapper.jsonSql('s')).toBe(
      'jsonb_build_object(\'id\', s."id", \'default_price\', s."default_price"::text, ' +
        '\'available_from\', s."available_from", \'valid_on\', s."valid_on", \'name\', s."name", \'created\', s."created")',
    );
  });

  it('turns JSON into the values TypeORM hydrates: Date for timestamps, strings for numerics and dates', () => {
    const row = mapper.fromJson({
      id: 7,
      default_price: '23.50',
      available_from: '2030-01-01T10:00:00+00:00',
      valid_on: '2030-01-02',
      name: { en: 'Ticket' },
      created: '2029-12-31T23:59:59.123+00:00',
    });
    expect(row).toEqual(
      expect.objectContaining({
        id: 7,
        defaultPrice: '23.50',
        availableFrom: new Date('2030-01-01T10:00:00Z'),
        validOn: '2030-01-02',
        name: { en: 'Ticket' },
        created: new Date('2029-12-31T23:59:59.123Z'),
      }),
    );
    expect(mapper.fromJsonArray(null)).toEqual([]);
  });

  it('uses a node-postgres row as it comes, with dates as YYYY-MM-DD', () => {
    const raw = { id: 1, defaultPrice: '1.00', availableFrom: null, validOn: new Date(2030, 0, 2), name: {} };
    const row = mapper.fromRow(raw);
    expect(row).toBe(raw);
    expect(row.validOn).toBe('2030-01-02');
  });
});
