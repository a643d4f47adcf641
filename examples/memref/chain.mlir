// A small model in func + memref: three operators called in sequence from @main, with
// intermediate tensors between them and a workspace inside one operator.
//   usmp-opt examples/memref/chain.mlir --plan-pools
//   usmp-opt examples/memref/chain.mlir --plan-pools -t usmp-report

func.func private @add(%a: memref<64xf32>, %b: memref<64xf32>, %out: memref<64xf32>) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %c64 step %c1 {
    %x = memref.load %a[%i] : memref<64xf32>
    %y = memref.load %b[%i] : memref<64xf32>
    %s = arith.addf %x, %y : f32
    memref.store %s, %out[%i] : memref<64xf32>
  }
  func.return
}

// Reverses its input through a workspace, then scales it by 2.
func.func private @reverse_scale(%in: memref<64xf32>, %out: memref<64xf32>) {
  %workspace = memref.alloc() : memref<64xf32>
  %c0 = arith.constant 0 : index
  %c63 = arith.constant 63 : index
  %c64 = arith.constant 64 : index
  %c1 = arith.constant 1 : index
  %two = arith.constant 2.0 : f32
  scf.for %i = %c0 to %c64 step %c1 {
    %j = arith.subi %c63, %i : index
    %x = memref.load %in[%i] : memref<64xf32>
    memref.store %x, %workspace[%j] : memref<64xf32>
  }
  scf.for %i = %c0 to %c64 step %c1 {
    %x = memref.load %workspace[%i] : memref<64xf32>
    %y = arith.mulf %x, %two : f32
    memref.store %y, %out[%i] : memref<64xf32>
  }
  memref.dealloc %workspace : memref<64xf32>
  func.return
}

func.func @main(%input: memref<64xf32>, %output: memref<64xf32>) {
  %t0 = memref.alloc() : memref<64xf32>
  func.call @add(%input, %input, %t0) : (memref<64xf32>, memref<64xf32>, memref<64xf32>) -> ()
  %t1 = memref.alloc() : memref<64xf32>
  func.call @reverse_scale(%t0, %t1) : (memref<64xf32>, memref<64xf32>) -> ()
  memref.dealloc %t0 : memref<64xf32>
  %t2 = memref.alloc() : memref<64xf32>
  func.call @add(%t1, %input, %t2) : (memref<64xf32>, memref<64xf32>, memref<64xf32>) -> ()
  memref.dealloc %t1 : memref<64xf32>
  func.call @reverse_scale(%t2, %output) : (memref<64xf32>, memref<64xf32>) -> ()
  memref.dealloc %t2 : memref<64xf32>
  func.return
}
