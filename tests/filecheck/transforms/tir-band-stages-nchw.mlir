// tir-band-stages on NCHW tensors, as TVM lowers them: x -> @mix (each output channel
// sums both input channels, one nest, the channel loop outermost) -> a -> @pool (a padded
// copy into a buffer of its own, then a 3-row window of stride 2, each nest with the
// channel loop outermost) -> d. Both are row operators along H (dim 2); @pool along C
// too, so the chain takes H. Banded, `a` holds a few rows of each channel, row r at
// r % rows of dim 2; @pool's copy runs each nest's loop over rows (the inner loop) over
// the rows the next nest reads, and holds its padded copy in the rows one call computes.
// RUN: usmp-opt %s -p tir-band-stages | filecheck %s
// RUN: usmp-opt %s --plan-pools -t usmp-report | filecheck %s --check-prefix=PLAN
tir.prim_func @mix(%in_ptr: !tir.ptr<f32> {tir.name = "in_ptr"}, %out_ptr: !tir.ptr<f32> {tir.name = "out_ptr"}) {
  %in = tir.decl_buffer "in" %in_ptr : !tir.ptr<f32> -> !tir.buffer<1x2x16x4xf32>
  %out = tir.decl_buffer "out" %out_ptr : !tir.ptr<f32> -> !tir.buffer<1x2x16x4xf32>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %c4 = arith.constant 4 : i32
  %c16 = arith.constant 16 : i32
  tir.for %c "c" = %c0 extent %c2 serial : i32 {
    tir.for %y "y" = %c0 extent %c16 serial : i32 {
      tir.for %x "x" = %c0 extent %c4 serial : i32 {
        %u = tir.load %in[%c0, %c0, %y, %x] : f32
        %v = tir.load %in[%c0, %c1, %y, %x] : f32
        %s = arith.addf %u, %v : f32
        tir.store %s, %out[%c0, %c, %y, %x]
      }
    }
  }
}
tir.prim_func @pool(%in_ptr: !tir.ptr<f32> {tir.name = "in_ptr"}, %out_ptr: !tir.ptr<f32> {tir.name = "out_ptr"}) {
  %in = tir.decl_buffer "in" %in_ptr : !tir.ptr<f32> -> !tir.buffer<1x2x16x4xf32>
  %out = tir.decl_buffer "out" %out_ptr : !tir.ptr<f32> -> !tir.buffer<1x2x8x4xf32>
  %pad = tir.alloc_buffer "pad" : !tir.buffer<1x2x18x4xf32>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %c3 = arith.constant 3 : i32
  %c4 = arith.constant 4 : i32
  %c8 = arith.constant 8 : i32
  %c17 = arith.constant 17 : i32
  %c18 = arith.constant 18 : i32
  %zero = arith.constant 0.0 : f32
  tir.for %c "c" = %c0 extent %c2 serial : i32 {
    tir.for %y "y" = %c0 extent %c18 serial : i32 {
      tir.for %x "x" = %c0 extent %c4 serial : i32 {
        %above = arith.cmpi sle, %c1, %y : i32
        %below = arith.cmpi slt, %y, %c17 : i32
        %inside = arith.andi %above, %below : i1
        %r = arith.subi %y, %c1 : i32
        %v = tir.load %in[%c0, %c, %r, %x] : f32
        %p = tir.call_intrin "prim.if_then_else"(%inside, %v, %zero) : (i1, f32, f32) -> f32
        tir.store %p, %pad[%c0, %c, %y, %x]
      }
    }
  }
  tir.for %co "co" = %c0 extent %c2 serial : i32 {
    tir.for %yo "yo" = %c0 extent %c8 serial : i32 {
      tir.for %xo "xo" = %c0 extent %c4 serial : i32 {
        tir.store %zero, %out[%c0, %co, %yo, %xo]
        tir.for %k "k" = %c0 extent %c3 serial : i32 {
          %ys = arith.muli %yo, %c2 : i32
          %row = arith.addi %ys, %k : i32
          %w = tir.load %pad[%c0, %co, %row, %xo] : f32
          %acc = tir.load %out[%c0, %co, %yo, %xo] : f32
          %sum = arith.addf %acc, %w : f32
          tir.store %sum, %out[%c0, %co, %yo, %xo]
        }
      }
    }
  }
}
tir.prim_func @main(%x: !tir.buffer<1x2x16x4xf32> {tir.name = "x"}, %d: !tir.buffer<1x2x8x4xf32> {tir.name = "d"}) {
  %a = tir.alloc_buffer "a" : !tir.buffer<1x2x16x4xf32>
  %0 = tir.buffer_data %x : !tir.buffer<1x2x16x4xf32> -> !tir.ptr<f32>
  %1 = tir.buffer_data %a : !tir.buffer<1x2x16x4xf32> -> !tir.ptr<f32>
  tir.call @mix(%0, %1) : (!tir.ptr<f32>, !tir.ptr<f32>) -> ()
  %2 = tir.buffer_data %a : !tir.buffer<1x2x16x4xf32> -> !tir.ptr<f32>
  %3 = tir.buffer_data %d : !tir.buffer<1x2x8x4xf32> -> !tir.ptr<f32>
  tir.call @pool(%2, %3) : (!tir.ptr<f32>, !tir.ptr<f32>) -> ()
}

// The chain's intermediate: 3 rows of each of its 2 channels, row r at r % 3 of dim 2.
// CHECK:      tir.prim_func @mix_band(%in_ptr: {{.*}}, %out_ptr: {{.*}}, %row_begin: i32 {{.*}}, %row_end: i32 {{.*}}) {
// CHECK:        %out = tir.decl_buffer "out" %out_ptr : !tir.ptr<f32> -> !tir.buffer<1x2x3x4xf32>
// CHECK:        tir.for %c "c" = %c0 extent %c2 serial : i32 {
// CHECK-NEXT:     tir.for %y "y" = %{{.*}} extent %{{.*}} serial : i32 {
// CHECK:            %[[SLOT:.*]] = arith.remsi %y, %{{.*}} : i32
// CHECK-NEXT:       tir.store %s, %out[%c0, %c, %[[SLOT]], %x]
// Its padded copy: output rows [b, e) read its rows 2b to 2e (clamped to its 18 rows),
// 3 rows a call at r % 3; the copy's loop over rows, inside the channel loop, runs over
// those, the pool's over [b, e).
// CHECK:      tir.prim_func @pool_band(
// CHECK:        %in = tir.decl_buffer "in" %in_ptr : !tir.ptr<f32> -> !tir.buffer<1x2x3x4xf32>
// CHECK-NEXT:   %out = tir.decl_buffer "out" %out_ptr : !tir.ptr<f32> -> !tir.buffer<1x2x8x4xf32>
// CHECK-NEXT:   %pad = tir.alloc_buffer "pad" : !tir.buffer<1x2x3x4xf32>
// CHECK:        %[[FIRST:.*]] = arith.minsi %{{.*}}, %{{.*}} : i32
// CHECK-NEXT:   %[[AT_LEAST:.*]] = arith.maxsi %row_end, %[[FIRST]] : i32
// CHECK-NEXT:   %[[LAST:.*]] = arith.minsi %[[AT_LEAST]], %{{.*}} : i32
// CHECK-NEXT:   %[[TWO:.*]] = arith.constant 2 : i32
// CHECK-NEXT:   %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK-NEXT:   %{{.*}} = arith.muli %[[FIRST]], %[[TWO]] : i32
// CHECK:        %[[PAD_END:.*]] = arith.constant 18 : i32
// CHECK:        %[[PAD_FIRST:.*]] = arith.minsi %{{.*}}, %[[PAD_END]] : i32
// CHECK:        %[[PAD_LAST:.*]] = arith.minsi %{{.*}}, %[[PAD_END]] : i32
// CHECK-NEXT:   %[[PAD_EXTENT:.*]] = arith.subi %[[PAD_LAST]], %[[PAD_FIRST]] : i32
// CHECK-NEXT:   %[[EXTENT:.*]] = arith.subi %[[LAST]], %[[FIRST]] : i32
// CHECK-NEXT:   tir.for %c "c" = %c0 extent %c2 serial : i32 {
// CHECK-NEXT:     tir.for %y "y" = %[[PAD_FIRST]] extent %[[PAD_EXTENT]] serial : i32 {
// CHECK:              tir.load %in[%c0, %c, %{{.*}}, %x] : f32
// CHECK:              %[[PAD_SLOT:.*]] = arith.remsi %y, %{{.*}} : i32
// CHECK-NEXT:         tir.store %p, %pad[%c0, %c, %[[PAD_SLOT]], %x]
// CHECK:        tir.for %co "co" = %c0 extent %c2 serial : i32 {
// CHECK-NEXT:     tir.for %yo "yo" = %[[FIRST]] extent %[[EXTENT]] serial : i32 {
// CHECK:              %[[ROW_SLOT:.*]] = arith.remsi %row, %{{.*}} : i32
// CHECK-NEXT:         %w = tir.load %pad[%c0, %co, %[[ROW_SLOT]], %xo] : f32
// The pool's padded copy counts in the peaks: 576 bytes beside a's 512 unbanded, its
// 3 rows (96) beside a_band's 96 banded.
// CHECK:      tir.prim_func @main({{.*}}usmp.bands = {peak = 1088 : i64, banded_peak = 192 : i64, stages = [{operators = ["mix", "pool"], band_height = 1 : i64, steps = 8 : i64, calls = 16 : i64, buffers = {a_band = 3 : i64}
// CHECK-NEXT:   %a_band = tir.alloc_buffer "a_band" : !tir.buffer<1x2x3x4xf32>
// CHECK:        tir.call @mix_band(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}})
// CHECK:        tir.call @pool_band(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}})

// Planned: the band buffer and the pool's 3-row padded copy, 192 bytes (unbanded: `a`
// and the 18-row copy, 1,088).
// PLAN:      global_workspace   192       192  1.000x  -
// PLAN:      a_band  global_workspace {{.*}} 96
// PLAN-NEXT: pad     global_workspace {{.*}} 96
// PLAN:      banded (tir-band-stages): 1088 -> 192 bytes live at once
// PLAN-NEXT:   stage 1: mix -> pool: band height 1, 8 steps, 16 calls
