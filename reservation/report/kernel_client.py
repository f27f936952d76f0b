"""The client of a report's kernels (``--fresh-kernels``: a kernel per notebook; by default the notebooks run in
the workers, :mod:`.inprocess`): jupyter_client's, with a readiness check that waits for the kernel's answer
instead of for a fixed silence.

Papermill (through nbclient) makes a new client for every notebook and waits until the kernel is ready.
jupyter_client's check sends ``kernel_info``, takes the reply, then reads IOPub until it has been silent for
0.2 s (proof that the IOPub channel is connected, and nothing left on it): 0.2 s of idle cores per notebook
(measured when the report reused one kernel per worker: kp-chair 2021, a division notebook 0.53 s of wall for
0.36 s of CPU). The kernel publishes on IOPub, for every request, its state
``busy`` then ``idle``: the ``idle`` of our own ``kernel_info`` request is the last message that request makes, so
seeing it proves the same thing without waiting; if it does not come (IOPub not yet connected), the request is
sent again, as jupyter_client does."""

from __future__ import annotations

import time
from queue import Empty

from jupyter_client.asynchronous import AsyncKernelClient

__all__ = ["ReportKernelClient", "CLIENT_CLASS"]

#: What :class:`jupyter_client.manager.AsyncKernelManager` takes as ``client_class``.
CLIENT_CLASS = f"{__name__}.ReportKernelClient"


class ReportKernelClient(AsyncKernelClient):
    """An :class:`AsyncKernelClient` whose :meth:`wait_for_ready` ends on the kernel's ``idle`` for the check's
    own request."""

    async def wait_for_ready(self, timeout: float | None = None) -> None:
        deadline = time.monotonic() + (float("inf") if timeout is None else timeout)
        while True:
            msg_id = self.kernel_info()
            reply = await self._reply_to(msg_id, 1.0)
            if reply is not None and await self._idle_after(msg_id, 0.5):
                self._handle_kernel_info_reply(reply)
                return
            if not await self._async_is_alive():
                raise RuntimeError("Kernel died before replying to kernel_info")
            if time.monotonic() > deadline:
                raise RuntimeError(f"Kernel didn't respond in {timeout:g} seconds")

    async def _reply_to(self, msg_id: str, wait: float):
        """The shell reply to ``msg_id``, or None when none came within ``wait`` seconds of quiet."""
        while True:
            try:
                msg = await self.shell_channel.get_msg(timeout=wait)
            except Empty:
                return None
            if msg.get("parent_header", {}).get("msg_id") == msg_id and msg["msg_type"] == "kernel_info_reply":
                return msg

    async def _idle_after(self, msg_id: str, wait: float) -> bool:
        """Read IOPub until the kernel's ``idle`` for ``msg_id`` (True), or ``wait`` seconds of quiet (False)."""
        while True:
            try:
                msg = await self.iopub_channel.get_msg(timeout=wait)
            except Empty:
                return False
            if (msg["msg_type"] == "status" and msg.get("parent_header", {}).get("msg_id") == msg_id
                    and msg["content"].get("execution_state") == "idle"):
                return True
