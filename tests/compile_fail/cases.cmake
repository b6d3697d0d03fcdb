# Malformed literal calls, their corrected twins, and the reason the compiler must print.
# Four entries per case: name, failing code, twin code, expected reason. (Generated once by hand;
# @SEMI@ stands for a semicolon, which CMake lists cannot hold.)
set(EINOPS_COMPILE_FAIL_CASES)
list(APPEND EINOPS_COMPILE_FAIL_CASES rearrange_arrow_missing
  [=[einops::rearrange(x, "a b")]=]
  [=[einops::rearrange(x, "a b -> a b")]=]
  [=[Pattern needs an arrow (->) between its two sides]=])
list(APPEND EINOPS_COMPILE_FAIL_CASES reduce_arrow_repeated
  [=[einops::reduce(x, "a b -> a -> b", "sum")]=]
  [=[einops::reduce(x, "a b -> a", "sum")]=]
  [=[Pattern may contain the arrow (->) only once]=])
list(APPEND EINOPS_COMPILE_FAIL_CASES repeat_dots_outside_ellipsis
  [=[einops::repeat(x, "a.b -> a", {})]=]
  [=[einops::repeat(x, "a b -> a b", {})]=]
  [=[Expression may contain dots only inside ellipsis]=])
list(APPEND EINOPS_COMPILE_FAIL_CASES rearrange_two_ellipses
  [=[einops::rearrange(x, "... a ... -> a")]=]
  [=[einops::rearrange(x, "... a -> ... a")]=]
  [=[only one ellipsis for tensor]=])
list(APPEND EINOPS_COMPILE_FAIL_CASES reduce_nested_brackets
  [=[einops::reduce(x, "((a b)) c -> a", "max")]=]
  [=[einops::reduce(x, "(a b) c -> a", "max", {{"b", 1}})]=]
  [=[Axis composition is one-level]=])
list(APPEND EINOPS_COMPILE_FAIL_CASES rearrange_unbalanced_close
  [=[einops::rearrange(x, "a b) -> a b")]=]
  [=[einops::rearrange(x, "a b -> a b")]=]
  [=[Brackets are not balanced]=])
list(APPEND EINOPS_COMPILE_FAIL_CASES repeat_unbalanced_open
  [=[einops::repeat(x, "(a b -> a b")]=]
  [=[einops::repeat(x, "a b -> a b")]=]
  [=[Imbalanced parentheses in expression]=])
list(APPEND EINOPS_COMPILE_FAIL_CASES rearrange_unknown_character
  [=[einops::rearrange(x, "a-b c -> c a-b")]=]
  [=[einops::rearrange(x, "a_b c -> c a_b")]=]
  [=[Unknown character]=])
list(APPEND EINOPS_COMPILE_FAIL_CASES reduce_invalid_utf8
  [=[einops::reduce(x, "a \xff -> a", "sum")]=]
  [=[einops::reduce(x, "a \xc3\x9f -> a", "sum")]=]
  [=[Invalid UTF-8 in pattern]=])
list(APPEND EINOPS_COMPILE_FAIL_CASES rearrange_duplicate_left
  [=[einops::rearrange(x, "a a -> a")]=]
  [=[einops::rearrange(x, "a b -> a b")]=]
  [=[Indexing expression contains duplicate dimension]=])
list(APPEND EINOPS_COMPILE_FAIL_CASES repeat_duplicate_right
  [=[einops::repeat(x, "a b -> a b b")]=]
  [=[einops::repeat(x, "a b -> a b 2")]=]
  [=[Indexing expression contains duplicate dimension]=])
list(APPEND EINOPS_COMPILE_FAIL_CASES rearrange_leading_digit
  [=[einops::rearrange(x, "2b c -> c 2b")]=]
  [=[einops::rearrange(x, "b2 c -> c b2")]=]
  [=[not a valid python identifier]=])
list(APPEND EINOPS_COMPILE_FAIL_CASES reduce_underscore_start
  [=[einops::reduce(x, "_a b -> b", "min")]=]
  [=[einops::reduce(x, "a b -> b", "min")]=]
  [=[axis name should should not start or end with underscore]=])
list(APPEND EINOPS_COMPILE_FAIL_CASES repeat_underscore_end
  [=[einops::repeat(x, "a b_ -> b_ a")]=]
  [=[einops::repeat(x, "a b -> b a")]=]
  [=[axis name should should not start or end with underscore]=])
list(APPEND EINOPS_COMPILE_FAIL_CASES reduce_anonymous_zero
  [=[einops::reduce(x, "a (b 0) -> a", "sum")]=]
  [=[einops::reduce(x, "a (b 3) -> a", "sum")]=]
  [=[Anonymous axis should have positive length, not 0]=])
list(APPEND EINOPS_COMPILE_FAIL_CASES reduce_anonymous_huge
  [=[einops::reduce(x, "a (b 99999999999999999999) -> a", "sum")]=]
  [=[einops::reduce(x, "a (b 9) -> a", "sum")]=]
  [=[Anonymous axis length is too large]=])
list(APPEND EINOPS_COMPILE_FAIL_CASES rearrange_too_many_axes
  [=[einops::rearrange(x, "(a0 a1 a2 a3 a4 a5 a6 a7 a8 a9 a10 a11 a12 a13 a14 a15 a16 a17 a18 a19 a20 a21 a22 a23 a24 a25 a26 a27 a28 a29 a30 a31 a32 a33 a34 a35 a36 a37 a38 a39 a40 a41 a42 a43 a44 a45 a46 a47 a48 a49 a50 a51 a52 a53 a54 a55 a56 a57 a58 a59 a60 a61 a62 a63 a64) -> a0")]=]
  [=[einops::rearrange(x, "(a0 a1) b -> a0 (a1 b)", {{"a1", 1}})]=]
  [=[Too many axes in one expression]=])
list(APPEND EINOPS_COMPILE_FAIL_CASES rearrange_ellipsis_right_only
  [=[einops::rearrange(x, "a b -> a b ...")]=]
  [=[einops::rearrange(x, "a ... -> a ...")]=]
  [=[Ellipsis found in right side, but not left side of a pattern]=])
list(APPEND EINOPS_COMPILE_FAIL_CASES repeat_ellipsis_right_only
  [=[einops::repeat(x, "a b -> ... a b")]=]
  [=[einops::repeat(x, "a ... -> ... a")]=]
  [=[Ellipsis found in right side, but not left side of a pattern]=])
list(APPEND EINOPS_COMPILE_FAIL_CASES reduce_ellipsis_parenthesized_left
  [=[einops::reduce(x, "(a ...) -> a", "sum")]=]
  [=[einops::reduce(x, "a ... -> a", "sum")]=]
  [=[Ellipsis inside parenthesis in the left side is not allowed]=])
list(APPEND EINOPS_COMPILE_FAIL_CASES rearrange_anonymous_axis
  [=[einops::rearrange(x, "a b -> a b 2")]=]
  [=[einops::rearrange(x, "a b -> a b 1")]=]
  [=[Non-unitary anonymous axes are not supported in rearrange]=])
list(APPEND EINOPS_COMPILE_FAIL_CASES rearrange_anonymous_left
  [=[einops::rearrange(x, "(a 2) b -> a b")]=]
  [=[einops::rearrange(x, "(a a2) b -> a a2 b", {{"a2", 2}})]=]
  [=[Non-unitary anonymous axes are not supported in rearrange]=])
list(APPEND EINOPS_COMPILE_FAIL_CASES rearrange_one_side_left
  [=[einops::rearrange(x, "a b -> a")]=]
  [=[einops::rearrange(x, "a b -> (a b)")]=]
  [=[Identifiers only on one side of expression]=])
list(APPEND EINOPS_COMPILE_FAIL_CASES rearrange_one_side_right
  [=[einops::rearrange(x, "a b -> a b c")]=]
  [=[einops::rearrange(x, "a b -> a b ()")]=]
  [=[Identifiers only on one side of expression]=])
list(APPEND EINOPS_COMPILE_FAIL_CASES rearrange_ellipsis_left_only
  [=[einops::rearrange(x, "a ... -> a")]=]
  [=[einops::rearrange(x, "a ... -> a (...)")]=]
  [=[Identifiers only on one side of expression]=])
list(APPEND EINOPS_COMPILE_FAIL_CASES repeat_left_identifier
  [=[einops::repeat(x, "a b -> a")]=]
  [=[einops::repeat(x, "a b -> a b")]=]
  [=[Unexpected identifiers on the left side of repeat]=])
list(APPEND EINOPS_COMPILE_FAIL_CASES repeat_anonymous_left
  [=[einops::repeat(x, "(a 2) -> a")]=]
  [=[einops::repeat(x, "a -> (a 2)")]=]
  [=[Unexpected identifiers on the left side of repeat]=])
list(APPEND EINOPS_COMPILE_FAIL_CASES repeat_missing_size
  [=[einops::repeat(x, "a b -> a b r")]=]
  [=[einops::repeat(x, "a b -> a b r", {{"r", 3}})]=]
  [=[Specify sizes for new axes in repeat]=])
list(APPEND EINOPS_COMPILE_FAIL_CASES reduce_right_identifier
  [=[einops::reduce(x, "a b -> a c", "sum")]=]
  [=[einops::reduce(x, "a b -> a", "sum")]=]
  [=[Unexpected identifiers on the right side of reduce]=])
list(APPEND EINOPS_COMPILE_FAIL_CASES reduce_anonymous_right
  [=[einops::reduce(x, "a b -> a 2", "mean")]=]
  [=[einops::reduce(x, "a b -> a 1", "mean")]=]
  [=[Unexpected identifiers on the right side of reduce]=])
list(APPEND EINOPS_COMPILE_FAIL_CASES length_name_unused
  [=[einops::rearrange(x, "(a b) c -> a b c", "d"_ax = 2)]=]
  [=[einops::rearrange(x, "(a b) c -> a b c", "b"_ax = 2)]=]
  [=[Axis is not used in transform]=])
list(APPEND EINOPS_COMPILE_FAIL_CASES length_name_invalid
  [=[einops::rearrange(x, "(a b) c -> a b c", "_b"_ax = 2)]=]
  [=[einops::rearrange(x, "(a b) c -> a b c", "b"_ax = 2)]=]
  [=[Invalid name for an axis]=])
list(APPEND EINOPS_COMPILE_FAIL_CASES length_name_twice
  [=[einops::rearrange(x, "(a b) c -> a b c", "b"_ax = 2, "b"_ax = 3)]=]
  [=[einops::rearrange(x, "(a b) c -> a b c", "a"_ax = 1, "b"_ax = 3)]=]
  [=[Axis length is given twice]=])
list(APPEND EINOPS_COMPILE_FAIL_CASES repeat_length_missing_other
  [=[einops::repeat(x, "a b -> a b r s", "r"_ax = 2)]=]
  [=[einops::repeat(x, "a b -> a b r s", "r"_ax = 2, "s"_ax = 3)]=]
  [=[Specify sizes for new axes in repeat]=])
list(APPEND EINOPS_COMPILE_FAIL_CASES reduce_length_unused
  [=[einops::reduce(x, "a (b c) -> a", "sum", "d"_ax = 2)]=]
  [=[einops::reduce(x, "a (b c) -> a", "sum", "c"_ax = 2)]=]
  [=[Axis is not used in transform]=])
list(APPEND EINOPS_COMPILE_FAIL_CASES any_tensor_rearrange
  [=[einops::rearrange(any, "a b -> a")]=]
  [=[einops::rearrange(any, "a b -> b a")]=]
  [=[Identifiers only on one side of expression]=])
list(APPEND EINOPS_COMPILE_FAIL_CASES list_input_reduce
  [=[einops::reduce(list, "n a b -> n c", "sum")]=]
  [=[einops::reduce(list, "n a b -> n", "sum")]=]
  [=[Unexpected identifiers on the right side of reduce]=])
list(APPEND EINOPS_COMPILE_FAIL_CASES callable_reduce
  [=[einops::reduce(x, "a b -> (a", [](std::span<const float> v) { return v[0]@SEMI@ })]=]
  [=[einops::reduce(x, "a b -> a", [](std::span<const float> v) { return v[0]@SEMI@ })]=]
  [=[Imbalanced parentheses in expression]=])
list(APPEND EINOPS_COMPILE_FAIL_CASES rearrange_into
  [=[einops::rearrange_into(x, x, "a b -> a b c")]=]
  [=[einops::rearrange_into(x, x, "a b -> a b")]=]
  [=[Identifiers only on one side of expression]=])
list(APPEND EINOPS_COMPILE_FAIL_CASES reduce_into
  [=[einops::reduce_into(x, x, "a b -> a b b", "max")]=]
  [=[einops::reduce_into(x, x, "a b -> a b", "max")]=]
  [=[Indexing expression contains duplicate dimension]=])
list(APPEND EINOPS_COMPILE_FAIL_CASES repeat_into
  [=[einops::repeat_into(x, x, "a b -> a")]=]
  [=[einops::repeat_into(x, x, "a b -> a b")]=]
  [=[Unexpected identifiers on the left side of repeat]=])
list(APPEND EINOPS_COMPILE_FAIL_CASES static_rank_input_mismatch
  [=[(void)einops::rearrange_pattern<einops::static_rank<3>>("a b -> b a")]=]
  [=[(void)einops::rearrange_pattern<einops::static_rank<2>>("a b -> b a")]=]
  [=[Wrong shape: expected 2 dims.]=])
list(APPEND EINOPS_COMPILE_FAIL_CASES static_rank_ellipsis_too_short
  [=[(void)einops::reduce_pattern<einops::static_rank<1>>("a b ... -> a")]=]
  [=[(void)einops::reduce_pattern<einops::static_rank<2>>("a b ... -> a")]=]
  [=[Wrong shape: expected >=2 dims.]=])
list(APPEND EINOPS_COMPILE_FAIL_CASES static_pattern_output_rank
  [=[(void)einops::static_pattern<"a b c -> c (b a)">::output_rank<2>()]=]
  [=[(void)einops::static_pattern<"a b c -> c (b a)">::output_rank<3>()]=]
  [=[Wrong shape: expected 3 dims.]=])
# pack / unpack, parse_shape and einsum literals.
list(APPEND EINOPS_COMPILE_FAIL_CASES pack_two_stars
  [=[(void)einops::pack(list, "b * * c")]=]
  [=[(void)einops::pack(list, "b * c")]=]
  [=[Duplicates in axes names]=])
list(APPEND EINOPS_COMPILE_FAIL_CASES pack_no_star
  [=[(void)einops::pack(list, "b c")]=]
  [=[(void)einops::pack(list, "b c *")]=]
  [=[No *-axis in pattern]=])
list(APPEND EINOPS_COMPILE_FAIL_CASES pack_bracket_is_not_a_name
  [=[(void)einops::pack(list, "b * (c)")]=]
  [=[(void)einops::pack(list, "b * c")]=]
  [=[Invalid axis name]=])
list(APPEND EINOPS_COMPILE_FAIL_CASES unpack_no_star
  [=[(void)einops::unpack(x, {{2}, {3}}, "a b")]=]
  [=[(void)einops::unpack(x, {{2}, {3}}, "a *")]=]
  [=[No *-axis in pattern]=])
list(APPEND EINOPS_COMPILE_FAIL_CASES parse_shape_composite
  [=[(void)einops::parse_shape(x, "a (b c)")]=]
  [=[(void)einops::parse_shape(x, "a b")]=]
  [=[parse shape with composite axes]=])
list(APPEND EINOPS_COMPILE_FAIL_CASES parse_shape_unbalanced
  [=[(void)einops::parse_shape(x, "a (b")]=]
  [=[(void)einops::parse_shape(x, "a (b)")]=]
  [=[Imbalanced parentheses in expression]=])
# check_shape literals: the grammar of one side, the names of the given lengths.
list(APPEND EINOPS_COMPILE_FAIL_CASES check_shape_unbalanced
  [=[(void)einops::check_shape(x, "b (h p")]=]
  [=[(void)einops::check_shape(x, "b (h p)")]=]
  [=[Imbalanced parentheses in expression]=])
list(APPEND EINOPS_COMPILE_FAIL_CASES check_shape_nested_brackets
  [=[(void)einops::check_shape(x, "b ((h) p)", "p"_ax = 2)]=]
  [=[(void)einops::check_shape(x, "b (h p)", "p"_ax = 2)]=]
  [=[Axis composition is one-level]=])
list(APPEND EINOPS_COMPILE_FAIL_CASES check_shape_ellipsis_in_group
  [=[(void)einops::check_shape(any, "b (h ...)", {})]=]
  [=[(void)einops::check_shape(any, "b h ...", {})]=]
  [=[Ellipsis inside parenthesis is not allowed here]=])
list(APPEND EINOPS_COMPILE_FAIL_CASES check_shape_anonymous_zero
  [=[(void)einops::check_shape(x, "b 0")]=]
  [=[(void)einops::check_shape(x, "b 3")]=]
  [=[Anonymous axis should have positive length, not 0]=])
list(APPEND EINOPS_COMPILE_FAIL_CASES check_shape_arrow
  [=[(void)einops::check_shape(x, "b c -> c b")]=]
  [=[(void)einops::check_shape(x, "b c")]=]
  [=[Unknown character]=])
list(APPEND EINOPS_COMPILE_FAIL_CASES check_shape_unused_length
  [=[(void)einops::check_shape(x, "b (h p)", "q"_ax = 2)]=]
  [=[(void)einops::check_shape(x, "b (h p)", "p"_ax = 2)]=]
  [=[Axis is not used in transform]=])
list(APPEND EINOPS_COMPILE_FAIL_CASES check_shape_placeholder_length
  [=[(void)einops::check_shape(x, "b _", "_"_ax = 2)]=]
  [=[(void)einops::check_shape(x, "b _", "b"_ax = 2)]=]
  [=[Invalid name for an axis]=])
list(APPEND EINOPS_COMPILE_FAIL_CASES check_shape_length_twice
  [=[(void)einops::check_shape(x, "b c", "b"_ax = 2, "b"_ax = 3)]=]
  [=[(void)einops::check_shape(x, "b c", "b"_ax = 2, "c"_ax = 3)]=]
  [=[Axis length is given twice]=])
list(APPEND EINOPS_COMPILE_FAIL_CASES check_shape_static_rank
  [=[(void)einops::check_shape_pattern<einops::static_rank<2>>("a b c")]=]
  [=[(void)einops::check_shape_pattern<einops::static_rank<3>>("a b c")]=]
  [=[Wrong shape: expected 3 dims.]=])
list(APPEND EINOPS_COMPILE_FAIL_CASES einsum_unknown_output_axis
  [=[(void)einops::einsum(x, x, "a b, b c -> a d")]=]
  [=[(void)einops::einsum(x, x, "a b, b c -> a c")]=]
  [=[Unknown axis on right side of einsum]=])
list(APPEND EINOPS_COMPILE_FAIL_CASES einsum_composition
  [=[(void)einops::einsum(x, "(a b) c -> c")]=]
  [=[(void)einops::einsum(x, "a c -> c")]=]
  [=[Shape rearrangement is not supported in einsum]=])
list(APPEND EINOPS_COMPILE_FAIL_CASES einsum_anonymous_axis
  [=[(void)einops::einsum(x, x, "a 2, b c -> a c")]=]
  [=[(void)einops::einsum(x, x, "a b, b c -> a c")]=]
  [=[Anonymous axes are not supported in einsum]=])
list(APPEND EINOPS_COMPILE_FAIL_CASES einsum_operand_count
  [=[(void)einops::einsum(x, x, "a b -> a")]=]
  [=[(void)einops::einsum(x, "a b -> a")]=]
  [=[The number of operands in the pattern differs from the number of tensors given]=])
list(APPEND EINOPS_COMPILE_FAIL_CASES einsum_arrow_missing
  [=[(void)einops::einsum(x, x, x, "a b, b c, c d")]=]
  [=[(void)einops::einsum(x, x, x, "a b, b c, c d -> a d")]=]
  [=[Pattern needs an arrow (->) between its two sides]=])
# rearrange_view: its literal is checked as rearrange's.
list(APPEND EINOPS_COMPILE_FAIL_CASES rearrange_view_one_side
  [=[(void)einops::rearrange_view(x, "a b -> a")]=]
  [=[(void)einops::rearrange_view(x, "a b -> (a b)")]=]
  [=[Identifiers only on one side of expression]=])
list(APPEND EINOPS_COMPILE_FAIL_CASES rearrange_view_unbalanced
  [=[(void)einops::rearrange_view(x, "(a b -> a b")]=]
  [=[(void)einops::rearrange_view(x, "a b -> a b")]=]
  [=[Imbalanced parentheses in expression]=])
list(APPEND EINOPS_COMPILE_FAIL_CASES rearrange_view_anonymous_axis
  [=[(void)einops::rearrange_view(x, "a b -> a b 2")]=]
  [=[(void)einops::rearrange_view(x, "a b -> a b 1")]=]
  [=[Non-unitary anonymous axes are not supported in rearrange]=])
list(APPEND EINOPS_COMPILE_FAIL_CASES rearrange_view_length_name_unused
  [=[(void)einops::rearrange_view(x, "(a b) c -> a b c", "d"_ax = 2)]=]
  [=[(void)einops::rearrange_view(x, "(a b) c -> a b c", "b"_ax = 2)]=]
  [=[Axis is not used in transform]=])
list(APPEND EINOPS_COMPILE_FAIL_CASES rearrange_view_any_tensor
  [=[(void)einops::rearrange_view(any, "a b -> a b b")]=]
  [=[(void)einops::rearrange_view(any, "a b -> a b")]=]
  [=[Indexing expression contains duplicate dimension]=])
list(APPEND EINOPS_COMPILE_FAIL_CASES rearrange_affine_axis_not_in_output
  [=[einops::rearrange<float>(x, "b h w c -> b c h w", einops::affine<"k">{.scale = {2.f, 3.f, 4.f}})]=]
  [=[einops::rearrange<float>(x, "b h w c -> b c h w", einops::affine<"c">{.scale = {2.f, 3.f, 4.f}})]=]
  [=[The axis of the affine map is not an axis of the output]=])
