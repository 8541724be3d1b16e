// Kysely's driver (its Driver interface: node_modules/kysely/dist/driver/driver.d.ts) with every
// connection, query, stream and transaction passing through ./availability.ts: what the driver
// throws becomes a DatabaseUnavailableError when the database cannot serve, and each answer
// tells an outage it is over.
import type { DatabaseConnection, Driver } from 'kysely';
import type { Availability } from './availability.ts';

/** Kysely's driver with every call passing through `watch`. */
export function watchedDriver(inner: Driver, watch: Availability): Driver {
  const own = new WeakMap<DatabaseConnection, DatabaseConnection>();
  const raw = (connection: DatabaseConnection) => own.get(connection) ?? connection;
  const guard = async <T>(run: () => Promise<T>): Promise<T> => {
    try {
      return await run();
    } catch (error) {
      throw watch.failed(error);
    }
  };
  return {
    init: (options) => guard(() => inner.init(options)),
    async acquireConnection(options) {
      const connection = await guard(() => inner.acquireConnection(options));
      const watched: DatabaseConnection = {
        async executeQuery<R>(
          query: Parameters<DatabaseConnection['executeQuery']>[0],
          queryOptions?: Parameters<DatabaseConnection['executeQuery']>[1],
        ) {
          const result = await guard(() => connection.executeQuery<R>(query, queryOptions));
          watch.answered();
          return result;
        },
        async *streamQuery(query, chunkSize, queryOptions) {
          try {
            yield* connection.streamQuery(query, chunkSize, queryOptions);
          } catch (error) {
            throw watch.failed(error);
          }
        },
      };
      own.set(watched, connection);
      return watched;
    },
    beginTransaction: (connection, settings) => guard(() => inner.beginTransaction(raw(connection), settings)),
    commitTransaction: (connection) => guard(() => inner.commitTransaction(raw(connection))),
    rollbackTransaction: (connection) => guard(() => inner.rollbackTransaction(raw(connection))),
    ...(inner.savepoint && { savepoint: (connection, name, compile) => guard(() => inner.savepoint!(raw(connection), name, compile)) }),
    ...(inner.rollbackToSavepoint && {
      rollbackToSavepoint: (connection, name, compile) => guard(() => inner.rollbackToSavepoint!(raw(connection), name, compile)),
    }),
    ...(inner.releaseSavepoint && {
      releaseSavepoint: (connection, name, compile) => guard(() => inner.releaseSavepoint!(raw(connection), name, compile)),
    }),
    releaseConnection: (connection, options) => inner.releaseConnection(raw(connection), options),
    destroy: (options) => inner.destroy(options),
  };
}
