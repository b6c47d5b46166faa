/**
 * A data set replaced while serving. The holder keeps the handler built over the current
 * services; each request is handed whole to the handler that is current when it arrives, so
 * its answer (entity tag and body alike) comes from one snapshot. The replaced handler is
 * dropped at once: requests still running keep it alive until they finish, then nothing
 * does, and the old data set is garbage.
 * @module
 */
import type { FetchHandler } from "../shared/http/respond.ts";
import type { ChargingServices } from "./services.ts";

export interface SwappableHandler {
  /** Hands each request to the handler current when it arrives. */
  readonly handle: FetchHandler;
  /** The services answering new requests. */
  readonly services: ChargingServices;
  /** Builds the handler over `next` and answers new requests with it from now on. */
  swap(next: ChargingServices): void;
}

/**
 * The handler over `services`, replaceable with `swap`. `build` makes one handler per data set;
 * whatever must outlive a swap (the rate limiter's counts) is shared by `build` itself.
 */
export function createSwappableHandler(
  services: ChargingServices,
  build: (services: ChargingServices) => FetchHandler,
): SwappableHandler {
  let current = { services, handler: build(services) };
  return {
    handle: (request, context) => current.handler(request, context),
    get services() {
      return current.services;
    },
    swap(next) {
      current = { services: next, handler: build(next) };
    },
  };
}
