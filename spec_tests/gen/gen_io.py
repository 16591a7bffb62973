"""Writes spec_tests/io/{send-recv,infeed,outfeed,custom-call}.hlotest
(after-all and add-dependency have their own files in control_flow/).

What the case format can express: send/recv between simulated devices
(XLA's `_xla_send_recv_source_target_pairs` frontend attribute names who
sends to whom), outfeed (its operand passes through add-dependency unchanged;
what reaches the host is not observable by a case), an infeed of the empty
tuple (the spec: "effectively a no-op"), and shape-rule rejections. An
infeed that reads data needs a host queue that a case cannot fill, and a
custom-call needs a registered target, so those have reject cases only."""
import numpy as np

import hlotest as H
import kernels_util as U

GEN = "gen_io.py"

SEND = "Send :: Sends the given operand data to a [`Recv`](#recv) instruction in another computation that shares the same channel handle."
RECV = "Recv :: Receives data of the given shape from a `Send` instruction in another computation that shares the same channel handle."
RECV_CTX = "RecvDone :: The context is a tuple of {receive buffer (shape), request identifier (U32)} and it can only be used by a `RecvDone` instruction."
RECV_DONE = "RecvDone :: Given a context created by a `Recv` instruction, waits for the data transfer to complete and return the received data."
SEND_CTX = "Send :: The context is a tuple of {operand (shape), request identifier (U32)} and it can only be used by a `SendDone` instruction."
SEND_DONE = "SendDone :: Given a context created by a `Send` instruction, waits for the data transfer to complete."
ORDER = "Scheduling of channel instructions :: `Recv` happens before `Send`"
INFEED = "Infeed :: Reads a single data item from the implicit Infeed streaming interface of the device, interpreting the data as the given shape and its layout, and returns a `XlaOp` of the data."
INFEED_EMPTY = "Infeed :: For an empty tuple shape, the Infeed operation is effectively a no-op and proceeds without reading any data from the Infeed of the device."
INFEED_NESTED = "Infeed :: Nested tuple shapes are not supported."
OUTFEED = "Outfeed :: Writes inputs to the outfeed."
OUTFEED_SHAPE = "Outfeed :: `shape_with_layout` communicates the laid out shape that we want to outfeed."
CC = "CustomCall :: Call a user-provided function within a computation."

POOL = [1, 2, -1, 3, 0.5, -2, 4, 0, 6, 1.5]


def sample(t, n, start=0):
    if t == "pred":
        return [bool((i + start) % 2) for i in range(n)]
    if H.is_complex(t):
        return [complex(POOL[(i + start) % 6], POOL[(i + start + 2) % 6])
                for i in range(n)]
    vals = [v for v in POOL if U.all_representable(t, [v])]
    return [vals[(i + start) % len(vals)] for i in range(n)]


def send_recv_module(n, s, pairs):
    attr = ('frontend_attributes={_xla_send_recv_source_target_pairs="%s"}'
            % pairs)
    body = ["t0 = token[] after-all()",
            "rv = (%s, u32[], token[]) recv(t0), channel_id=1, %s" % (s, attr),
            "sn = (%s, u32[], token[]) send(p0, t0), channel_id=1, %s" % (
                s, attr),
            "sd = token[] send-done(sn), channel_id=1",
            "rd = (%s, token[]) recv-done(rv), channel_id=1" % s,
            "data = %s get-tuple-element(rd), index=0" % s]
    return U.device_module(n, 1, [s], body,
                           "%s add-dependency(data, sd)" % s)


def send_recv_cases():
    cs = []
    spec = [SEND, RECV, RECV_CTX, RECV_DONE, SEND_CTX, SEND_DONE]
    xs = [[1 + d, 10 * (d + 1)] for d in range(3)]
    mod = send_recv_module(3, "s32[2]", "{{0,1},{1,2},{2,0}}")
    cs.append(U.DeviceCase(
        "send-recv.s32.ring", spec + [ORDER], "hand", mod, 3,
        dev_args=[[U.lit("s32", x)] for x in xs],
        dev_expects=[U.lit("s32", xs[(d - 1) % 3]) for d in range(3)],
        tolerance="exact",
        note="device d receives device d-1's operand; every device receives "
             "before its own send completes"))
    for t in H.ALL:
        xs = [sample(t, 2, 0), sample(t, 2, 3)]
        mod = send_recv_module(2, U.shape(t, [2]), "{{0,1},{1,0}}")
        cs.append(U.DeviceCase(
            "send-recv.%s.swap" % t, [SEND, RECV], "hand", mod, 2,
            dev_args=[[U.lit(t, np.array(x, dtype=object))] for x in xs],
            dev_expects=[U.lit(t, np.array(xs[1 - d], dtype=object))
                         for d in range(2)], tolerance="exact"))
    rej = U.reject_case
    cs.append(rej("send-recv.reject.recv_context", [RECV_CTX], U.entry(
        [], ["t0 = token[] after-all()"],
        "(f32[2], token[]) recv(t0), channel_id=1"), prefer="shape"))
    cs.append(rej("send-recv.reject.send_context", [SEND_CTX], U.entry(
        ["f32[2]"], ["t0 = token[] after-all()"],
        "(f32[2], token[]) send(p0, t0), channel_id=1"), prefer="shape"))
    cs.append(rej("send-recv.reject.recv_done_shape", [RECV_DONE], U.entry(
        [], ["t0 = token[] after-all()",
             "rv = (f32[2], u32[], token[]) recv(t0), channel_id=1"],
        "(f32[3], token[]) recv-done(rv), channel_id=1")))
    cs.append(rej("send-recv.reject.send_done_shape", [SEND_DONE], U.entry(
        ["f32[2]"], ["t0 = token[] after-all()",
                     "sn = (f32[2], u32[], token[]) send(p0, t0), "
                     "channel_id=1"],
        "f32[2] send-done(sn), channel_id=1")))
    cs.append(rej("send-recv.reject.send_token", [SEND_CTX], U.entry(
        ["f32[2]", "f32[]"], [],
        "(f32[2], u32[], token[]) send(p0, p1), channel_id=1"),
        prefer="token"))
    return cs


def feed_cases():
    infeed, outfeed = [], []
    mod = U.entry(["f32[2]"], ["t0 = token[] after-all()",
                               "i = ((), token[]) infeed(t0)",
                               "t1 = token[] get-tuple-element(i), index=1"],
                  "f32[2] add-dependency(p0, t1)")
    infeed.append(H.Case("infeed.tuple.empty_is_a_no_op", [INFEED_EMPTY],
                         "hand", mod, args=["f32[2] {3, 4}"],
                         expect="f32[2] {3, 4}", tolerance="exact"))
    infeed.append(U.reject_case("infeed.reject.nested_tuple", [INFEED_NESTED],
                                U.entry([], ["t0 = token[] after-all()"],
                                        "((f32[2], (s32[])), token[]) "
                                        "infeed(t0)")))
    infeed.append(U.reject_case("infeed.reject.no_token", [INFEED], U.entry(
        ["f32[]"], [], "(f32[2], token[]) infeed(p0)")))
    infeed.append(U.reject_case("infeed.reject.result_not_pair", [INFEED],
                                U.entry([], ["t0 = token[] after-all()"],
                                        "f32[2] infeed(t0)")))
    for t in ("f32", "s32", "u8", "pred", "bf16", "c128"):
        x = np.array(sample(t, 2, 2), dtype=object)
        s = U.shape(t, [2])
        mod = U.entry([s], ["t0 = token[] after-all()",
                            "o = token[] outfeed(p0, t0), outfeed_shape=%s"
                            % s], "%s add-dependency(p0, o)" % s)
        outfeed.append(H.Case("outfeed.%s.runs" % t, [OUTFEED], "hand", mod,
                              args=[U.lit(t, x)], expect=U.lit(t, x),
                              tolerance="exact",
                              note="the outfeed's host side is not "
                                   "observable here; its operand is "
                                   "unchanged"))
    outfeed.append(U.reject_case("outfeed.reject.shape_differs",
                                 [OUTFEED_SHAPE], U.entry(
                                     ["f32[2]"], ["t0 = token[] after-all()"],
                                     "token[] outfeed(p0, t0), "
                                     "outfeed_shape=f32[3]")))
    outfeed.append(U.reject_case("outfeed.reject.result_type", [OUTFEED],
                                 U.entry(["f32[2]"],
                                         ["t0 = token[] after-all()"],
                                         "f32[2] outfeed(p0, t0), "
                                         "outfeed_shape=f32[2]")))
    return infeed, outfeed


def custom_call_cases():
    cs = []
    cs.append(U.reject_case("custom-call.reject.layout_constraint", [CC],
                            U.entry(["f32[2]"], [], (
                                'f32[2] custom-call(p0), custom_call_target='
                                '"foo", operand_layout_constraints={f32[3]}'
                            ))))
    cs.append(U.reject_case("custom-call.reject.aliasing_operand", [CC],
                            U.entry(["f32[2]"], [], (
                                'f32[2] custom-call(p0), custom_call_target='
                                '"foo", output_to_operand_aliasing='
                                '{{}: (1, {})}'))))
    mod = U.entry(["f32[2]"], [], "f32[2] custom-call(p0)")
    cs.append(H.Case("custom-call.reject.no_target", [CC], "hand", mod,
                     reject="parse missing required attribute "
                     "'custom_call_target'"))
    return cs


def main():
    infeed, outfeed = feed_cases()
    for stem, op, cases in (
            ("send-recv", "send, recv, send-done, recv-done",
             send_recv_cases()),
            ("infeed", "infeed", infeed), ("outfeed", "outfeed", outfeed),
            ("custom-call", "custom-call", custom_call_cases())):
        H.write_file("io", stem, op, cases, __doc__.split("\n\n", 1)[1]
                     if stem == "send-recv" else stem + ": see "
                     "spec_tests/gen/gen_io.py for what is expressible.", GEN)
        print(stem, len(cases))


if __name__ == "__main__":
    main()
