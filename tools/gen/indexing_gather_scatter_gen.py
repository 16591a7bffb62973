"""Expected values for indexing_generated_test.cc, computed with JAX/XLA.

Run: python3 -m venv /tmp/jaxenv && /tmp/jaxenv/bin/pip install jax numpy
     /tmp/jaxenv/bin/python tools/gen/indexing_gather_scatter_gen.py
Prints each case's operands and result as HLO literal text.
"""
import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

jax.config.update("jax_enable_x64", True)


def text(a):
  a = np.asarray(a)
  def rec(x):
    if x.ndim == 0:
      return str(x.item())
    return "{" + ", ".join(rec(y) for y in x) + "}"
  return rec(a)


def gather_case():
  # Batching dims (operand 0 <-> indices 2), index_vector_dim in the middle
  # (1), an offset dim between batch dims, clamped starts.
  operand = np.arange(2 * 5 * 4, dtype=np.int32).reshape(2, 5, 4)
  indices = np.array([[[3, 0], [1, 4]], [[7, -2], [0, 1]], [[2, 2], [4, 9]]],
                     dtype=np.int32)  # [3,2,2]: vector dim 1, batch dims 0, 2
  dn = lax.GatherDimensionNumbers(
      offset_dims=(1,), collapsed_slice_dims=(1,), start_index_map=(1, 2),
      operand_batching_dims=(0,), start_indices_batching_dims=(1,))
  out = lax.gather(operand, jnp.moveaxis(indices, 1, -1), dn, (1, 1, 3),
                   mode=lax.GatherScatterMode.CLIP)
  # lax.gather wants the index vector last: moveaxis makes raw dims (0, 2, 1)
  # so raw batching dim 2 is dim 1 there. The Kiln test uses the raw layout
  # with index_vector_dim=1 and start_indices_batching_dims={2}.
  print("gather operand s32[2,5,4]", text(operand))
  print("gather indices s32[3,2,2]", text(indices))
  print("gather result", out.shape, text(out))


def scatter_case(window_rows=2):
  # StableHLO spec's scatter example (batching dims, scatter_dims_to_operand
  # dims out of order, one index out of bounds).
  operand = np.arange(1, 49, dtype=np.int32).reshape(2, 3, 4, 2)
  indices = np.array([[[[0, 0], [1, 0], [2, 1]], [[0, 1], [1, 1], [0, 9]]],
                      [[[0, 0], [2, 1], [2, 2]], [[1, 2], [0, 1], [1, 0]]]],
                     dtype=np.int64)
  updates = np.ones((2, 2, 3, window_rows, 2), dtype=np.int32)
  dn = lax.ScatterDimensionNumbers(
      update_window_dims=(3, 4), inserted_window_dims=(1,),
      scatter_dims_to_operand_dims=(2, 1), operand_batching_dims=(0,),
      scatter_indices_batching_dims=(1,))
  out = lax.scatter_add(operand, indices, updates, dn,
                        mode=lax.GatherScatterMode.FILL_OR_DROP)
  print("scatter updates", updates.shape)
  print("scatter operand s32[2,3,4,2]", text(operand))
  print("scatter indices s64[2,2,3,2]", text(indices))
  print("scatter result", out.shape, text(out))


gather_case()
scatter_case()
# operation_semantics.md's "Scatter - Example 1" states updates S32[2,2,3,1,2].
scatter_case(window_rows=1)
