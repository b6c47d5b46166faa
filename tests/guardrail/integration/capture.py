"""A logging callback loaded by the proxy beside its config: records what loggers would see.

For every event a logging backend can receive (success and failure, async and sync, and the
post-call failure hook) it writes the call details it was handed, the response object and the
spend-log row (`get_logging_payload`, the function the proxy's DB writer uses) as one JSON line
to $CAPTURE_PATH. Objects are written as data (pydantic dumps, containers walked), so every
string a backend could read is in the file as text.
"""

import json
import os
import threading

from litellm.integrations.custom_logger import CustomLogger


def _plain(value, depth=0):
    if depth > 40:
        return str(value)
    if isinstance(value, (str, int, float, bool)) or value is None:
        return value
    if isinstance(value, dict):
        return {str(k): _plain(v, depth + 1) for k, v in value.items()}
    if isinstance(value, (list, tuple, set)):
        return [_plain(v, depth + 1) for v in value]
    dump = getattr(value, "model_dump", None)
    if callable(dump):
        try:
            dumped = dump()
        except Exception:  # noqa: BLE001 - best effort, the text form below still counts
            dumped = None
        if dumped is not None:
            return _plain(dumped, depth + 1)
    if isinstance(value, BaseException):
        return {"exception": type(value).__name__, "message": str(value)}
    if hasattr(value, "__dict__") and type(value).__module__.startswith("litellm.types"):
        return _plain(vars(value), depth + 1)
    return str(value)


_APPEND_LOCK = threading.Lock()


def _append(data: bytes) -> None:
    # Sync callbacks run on the proxy's thread pool beside the async ones: a buffered text
    # file splits a long line into several writes that can interleave, so each record goes
    # out as one O_APPEND write under a lock, and readers skip a last line not yet ended.
    with _APPEND_LOCK:
        fd = os.open(os.environ["CAPTURE_PATH"], os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view) :]
        finally:
            os.close(fd)


class Capture(CustomLogger):
    def _write(self, kind, kwargs, response_obj=None, start_time=None, end_time=None):
        record = {"kind": kind, "call_type": (kwargs or {}).get("call_type")}
        record["kwargs"] = {k: v for k, v in (kwargs or {}).items() if k != "litellm_logging_obj"}
        record["response"] = response_obj
        if kind.endswith("success"):
            try:
                from litellm.proxy.spend_tracking.spend_tracking_utils import get_logging_payload

                record["spend_log"] = get_logging_payload(
                    kwargs, response_obj, start_time, end_time
                )
            except Exception as error:  # noqa: BLE001 - recorded, and asserted on by the test
                record["spend_log_error"] = repr(error)
        line = json.dumps(_plain(record), ensure_ascii=False, default=str) + "\n"
        _append(line.encode("utf-8"))

    async def async_log_success_event(self, kwargs, response_obj, start_time, end_time):
        self._write("async_success", kwargs, response_obj, start_time, end_time)

    def log_success_event(self, kwargs, response_obj, start_time, end_time):
        self._write("sync_success", kwargs, response_obj, start_time, end_time)

    async def async_log_failure_event(self, kwargs, response_obj, start_time, end_time):
        self._write("async_failure", kwargs, response_obj, start_time, end_time)

    def log_failure_event(self, kwargs, response_obj, start_time, end_time):
        self._write("sync_failure", kwargs, response_obj, start_time, end_time)

    async def async_post_call_failure_hook(
        self, request_data, original_exception, user_api_key_dict, traceback_str=None
    ):
        self._write("post_call_failure", request_data, original_exception)


capture_instance = Capture()
