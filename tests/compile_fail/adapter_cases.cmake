# Literal patterns against the static ranks of Eigen and xtensor tensors (adapters.cmake makes
# the translation units). Same four entries per case as cases.cmake: name, failing code, twin
# code, expected text (the reason, which names both ranks).
set(EINOPS_ADAPTER_COMPILE_FAIL_CASES)
list(APPEND EINOPS_ADAPTER_COMPILE_FAIL_CASES eigen_rearrange_input_rank
  [=[(void)einops::rearrange(e, "a b c -> c b a")]=]
  [=[(void)einops::rearrange(e, "a b c d -> d c b a")]=]
  [=[Wrong shape: expected 3 dims. Received 4-dim tensor.]=])
list(APPEND EINOPS_ADAPTER_COMPILE_FAIL_CASES eigen_template_pattern_input_rank
  [=[(void)einops::rearrange<"b c h -> b h c">(e)]=]
  [=[(void)einops::rearrange<"b c h w -> b h w c">(e)]=]
  [=[Wrong shape: expected 3 dims. Received 4-dim tensor.]=])
list(APPEND EINOPS_ADAPTER_COMPILE_FAIL_CASES eigen_reduce_ellipsis_minimum
  [=[(void)einops::reduce<"a b c d e ... -> a">(e, "sum")]=]
  [=[(void)einops::reduce<"a b c ... -> a">(e, "sum")]=]
  [=[Wrong shape: expected >=5 dims. Received 4-dim tensor.]=])
list(APPEND EINOPS_ADAPTER_COMPILE_FAIL_CASES eigen_matrix_is_rank_two
  [=[(void)einops::rearrange(m, "a b c -> a (b c)")]=]
  [=[(void)einops::rearrange(m, "a b -> (a b)")]=]
  [=[Wrong shape: expected 3 dims. Received 2-dim tensor.]=])
list(APPEND EINOPS_ADAPTER_COMPILE_FAIL_CASES eigen_requested_output_rank
  [=[(void)einops::rearrange<3>(e, "b c h w -> b h w c")]=]
  [=[(void)einops::rearrange<3>(e, "b c h w -> b (h w) c")]=]
  [=[The requested result rank is 3 but the pattern gives rank 4]=])
list(APPEND EINOPS_ADAPTER_COMPILE_FAIL_CASES eigen_length_name_unused
  [=[(void)einops::rearrange<"b c (h h2) w -> b c h h2 w">(e, "h3"_ax = 2)]=]
  [=[(void)einops::rearrange<"b c (h h2) w -> b c h h2 w">(e, "h2"_ax = 2)]=]
  [=[Axis is not used in transform]=])
list(APPEND EINOPS_ADAPTER_COMPILE_FAIL_CASES xtensor_rearrange_input_rank
  [=[(void)einops::rearrange(xt4, "a b -> b a")]=]
  [=[(void)einops::rearrange(xt4, "a b ... -> b a ...")]=]
  [=[Wrong shape: expected 2 dims. Received 4-dim tensor.]=])
list(APPEND EINOPS_ADAPTER_COMPILE_FAIL_CASES xtensor_template_pattern_input_rank
  [=[(void)einops::repeat<"a b c -> a b c r">(xt4, "r"_ax = 2)]=]
  [=[(void)einops::repeat<"a b c d -> a b c d r">(xt4, "r"_ax = 2)]=]
  [=[Wrong shape: expected 3 dims. Received 4-dim tensor.]=])
list(APPEND EINOPS_ADAPTER_COMPILE_FAIL_CASES xtensor_pattern_syntax
  [=[(void)einops::reduce(xt4, "a b c d -> a (b", "max")]=]
  [=[(void)einops::reduce(xt4, "a b c d -> a b", "max")]=]
  [=[Imbalanced parentheses in expression]=])
list(APPEND EINOPS_ADAPTER_COMPILE_FAIL_CASES xarray_requested_output_rank
  [=[(void)einops::rearrange<2>(xa, "a b c -> c b a")]=]
  [=[(void)einops::rearrange<3>(xa, "a b c -> c b a")]=]
  [=[The requested result rank is 2 but the pattern gives rank 3]=])
# rearrange_view of an adapted tensor: a built-in view, its literal checked against the static rank.
list(APPEND EINOPS_ADAPTER_COMPILE_FAIL_CASES eigen_rearrange_view_input_rank
  [=[(void)einops::rearrange_view(e, "a b c -> c b a")]=]
  [=[(void)einops::rearrange_view(e, "a b c d -> d c b a")]=]
  [=[Wrong shape: expected 3 dims. Received 4-dim tensor.]=])
list(APPEND EINOPS_ADAPTER_COMPILE_FAIL_CASES xtensor_rearrange_view_merge_unknown_axis
  [=[(void)einops::rearrange_view(xa, "a b -> (a c)")]=]
  [=[(void)einops::rearrange_view(xa, "a b -> (a b)")]=]
  [=[Identifiers only on one side of expression]=])
list(APPEND EINOPS_ADAPTER_COMPILE_FAIL_CASES eigen_check_shape_rank
  [=[(void)einops::check_shape(e, "b c h", "c"_ax = 3)]=]
  [=[(void)einops::check_shape(e, "b c h w", "c"_ax = 3)]=]
  [=[Wrong shape: expected 3 dims. Received 4-dim tensor.]=])
list(APPEND EINOPS_ADAPTER_COMPILE_FAIL_CASES eigen_check_shape_ellipsis_minimum
  [=[(void)einops::check_shape(m, "a b c ...", {})]=]
  [=[(void)einops::check_shape(m, "a b ...", {})]=]
  [=[Wrong shape: expected >=3 dims. Received 2-dim tensor.]=])
list(APPEND EINOPS_ADAPTER_COMPILE_FAIL_CASES xtensor_check_shape_rank
  [=[(void)einops::check_shape(xt4, "b (h p) w")]=]
  [=[(void)einops::check_shape(xt4, "b c (h p) w")]=]
  [=[Wrong shape: expected 3 dims. Received 4-dim tensor.]=])
list(APPEND EINOPS_ADAPTER_COMPILE_FAIL_CASES xtensor_check_shape_unused_length
  [=[(void)einops::check_shape(xa, "b c", "d"_ax = 2)]=]
  [=[(void)einops::check_shape(xa, "b c", "c"_ax = 2)]=]
  [=[Axis is not used in transform]=])
