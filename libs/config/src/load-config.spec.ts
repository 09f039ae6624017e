import { z } from 'zod';
import { ConfigError, loadConfig } from './load-config';
import { kafkaBrokers, port } from './env';

describe('loadConfig', () => {
  const schema = z.object({ PORT: port(8080), KAFKA_BROKERS: kafkaBrokers });

  it('applies defaults for unset variables', () => {
    expect(loadConfig(schema, {})).toEqual({ PORT: 8080, KAFKA_BROKERS: ['127.0.0.1:9092'] });
  });

  it('lists every invalid variable with its value', () => {
    expect(() => loadConfig(schema, { PORT: 'eighty' })).toThrow(ConfigError);
    expect(() => loadConfig(z.object({ PORT: port(1), OTHER: port(2) }), { PORT: 'x', OTHER: '70000' })).toThrow(
      expect.objectContaining({
        problems: [expect.stringMatching(/^PORT: .*\(got 'x'\)$/), expect.stringMatching(/^OTHER: .*\(got '70000'\)$/)],
      }),
    );
  });
});
