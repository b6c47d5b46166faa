"""A logging callback loaded by the proxy beside its config: records what loggers would see.

For every success event it writes the standard logging payload, the request body kept for the
spend log, the response object and the spend-log row (`get_logging_payload`, the function the
proxy's DB writer uses) as one JSON line to $CAPTURE_PATH.
"""

import json
import os

from litellm.integrations.custom_logger import CustomLogger


def _plain(value):
    dump = getattr(value, "model_dump", None)
    if callable(dump):
        try:
            return dump()
        except Exception:  # noqa: BLE001 - best effort serialisation for the test
            return str(value)
    return str(value)


class Capture(CustomLogger):
    def _write(self, kind, kwargs, response_obj, start_time, end_time):
        params = kwargs.get("litellm_params") or {}
        record = {
            "kind": kind,
            "call_type": kwargs.get("call_type"),
            "standard_logging_object": kwargs.get("standard_logging_object"),
            "messages": kwargs.get("messages"),
            "input": kwargs.get("input"),
            "proxy_server_request": params.get("proxy_server_request"),
            "response": response_obj,
        }
        try:
            from litellm.proxy.spend_tracking.spend_tracking_utils import get_logging_payload

            record["spend_log"] = get_logging_payload(kwargs, response_obj, start_time, end_time)
        except Exception as error:  # noqa: BLE001 - recorded, and asserted on by the test
            record["spend_log_error"] = repr(error)
        line = json.dumps(record, default=_plain, ensure_ascii=False)
        with open(os.environ["CAPTURE_PATH"], "a", encoding="utf-8") as file:
            file.write(line + "\n")

    async def async_log_success_event(self, kwargs, response_obj, start_time, end_time):
        self._write("async_success", kwargs, response_obj, start_time, end_time)

    def log_success_event(self, kwargs, response_obj, start_time, end_time):
        self._write("sync_success", kwargs, response_obj, start_time, end_time)


capture_instance = Capture()
