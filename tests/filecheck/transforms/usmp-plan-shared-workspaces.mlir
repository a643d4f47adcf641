// ResNet-18 at 224x224 imported without fusion (`usmp-translate --import-relax
// 'examples/models/resnet.py:resnet(size=224, config="resnet18")' --fusion none`), its
// buffers and live intervals after tir-to-usmp: each operator's workspace is one buffer
// for all calls of the operator, live in several intervals. `default` plans it at max-live
// and proves it (issue 34: it gave 7057328 bytes after spending its whole search budget).
// RUN: usmp-opt %s -p usmp-plan | filecheck %s
// CHECK: usmp.plan = #usmp.plan<"default", proven_optimal = true, time_limit_reached = false, lower_bounds = {global_workspace = 6538240}>
// CHECK-NEXT: usmp.pool @global_workspace workspace alignment 1 size 6538240

usmp.pool @global_workspace workspace alignment 1
%b0 = usmp.alloc_offset "pad_temp" [@global_workspace][?] align 16 : memref<634800xi8>
%b1 = usmp.alloc_offset "pad_temp3" [@global_workspace][?] align 16 : memref<861184xi8>
%b2 = usmp.alloc_offset "pad_temp12" [@global_workspace][?] align 16 : memref<200704xi8>
%b3 = usmp.alloc_offset "pad_temp4" [@global_workspace][?] align 16 : memref<861184xi8>
%b4 = usmp.alloc_offset "pad_temp5" [@global_workspace][?] align 16 : memref<460800xi8>
%b5 = usmp.alloc_offset "pad_temp6" [@global_workspace][?] align 16 : memref<802816xi8>
%b6 = usmp.alloc_offset "pad_temp7" [@global_workspace][?] align 16 : memref<460800xi8>
%b7 = usmp.alloc_offset "pad_temp8" [@global_workspace][?] align 16 : memref<262144xi8>
%b8 = usmp.alloc_offset "pad_temp9" [@global_workspace][?] align 16 : memref<401408xi8>
%b9 = usmp.alloc_offset "pad_temp10" [@global_workspace][?] align 16 : memref<262144xi8>
%b10 = usmp.alloc_offset "pad_temp11" [@global_workspace][?] align 16 : memref<165888xi8>
%b11 = usmp.alloc_offset "lv" [@global_workspace][?] align 16 : memref<3211264xi8>
%b12 = usmp.alloc_offset "conv2d_" [@global_workspace][?] align 16 : memref<3211264xi8>
%b13 = usmp.alloc_offset "relu_" [@global_workspace][?] align 16 : memref<3211264xi8>
%b14 = usmp.alloc_offset "max_pool2d_" [@global_workspace][?] align 16 : memref<802816xi8>
%b15 = usmp.alloc_offset "lv2" [@global_workspace][?] align 16 : memref<802816xi8>
%b16 = usmp.alloc_offset "conv2d1_" [@global_workspace][?] align 16 : memref<802816xi8>
%b17 = usmp.alloc_offset "relu1_" [@global_workspace][?] align 16 : memref<802816xi8>
%b18 = usmp.alloc_offset "lv4" [@global_workspace][?] align 16 : memref<802816xi8>
%b19 = usmp.alloc_offset "conv2d2_" [@global_workspace][?] align 16 : memref<802816xi8>
%b20 = usmp.alloc_offset "add_" [@global_workspace][?] align 16 : memref<802816xi8>
%b21 = usmp.alloc_offset "relu2_" [@global_workspace][?] align 16 : memref<802816xi8>
%b22 = usmp.alloc_offset "lv6" [@global_workspace][?] align 16 : memref<802816xi8>
%b23 = usmp.alloc_offset "conv2d3_" [@global_workspace][?] align 16 : memref<802816xi8>
%b24 = usmp.alloc_offset "relu3_" [@global_workspace][?] align 16 : memref<802816xi8>
%b25 = usmp.alloc_offset "lv8" [@global_workspace][?] align 16 : memref<802816xi8>
%b26 = usmp.alloc_offset "conv2d4_" [@global_workspace][?] align 16 : memref<802816xi8>
%b27 = usmp.alloc_offset "add1_" [@global_workspace][?] align 16 : memref<802816xi8>
%b28 = usmp.alloc_offset "relu4_" [@global_workspace][?] align 16 : memref<802816xi8>
%b29 = usmp.alloc_offset "lv10" [@global_workspace][?] align 16 : memref<401408xi8>
%b30 = usmp.alloc_offset "conv2d5_" [@global_workspace][?] align 16 : memref<401408xi8>
%b31 = usmp.alloc_offset "relu5" [@global_workspace][?] align 16 : memref<401408xi8>
%b32 = usmp.alloc_offset "lv12" [@global_workspace][?] align 16 : memref<401408xi8>
%b33 = usmp.alloc_offset "conv2d6_" [@global_workspace][?] align 16 : memref<401408xi8>
%b34 = usmp.alloc_offset "lv14" [@global_workspace][?] align 16 : memref<401408xi8>
%b35 = usmp.alloc_offset "conv2d7_" [@global_workspace][?] align 16 : memref<401408xi8>
%b36 = usmp.alloc_offset "add2_" [@global_workspace][?] align 16 : memref<401408xi8>
%b37 = usmp.alloc_offset "relu6" [@global_workspace][?] align 16 : memref<401408xi8>
%b38 = usmp.alloc_offset "lv16" [@global_workspace][?] align 16 : memref<401408xi8>
%b39 = usmp.alloc_offset "conv2d8_" [@global_workspace][?] align 16 : memref<401408xi8>
%b40 = usmp.alloc_offset "relu7" [@global_workspace][?] align 16 : memref<401408xi8>
%b41 = usmp.alloc_offset "lv18" [@global_workspace][?] align 16 : memref<401408xi8>
%b42 = usmp.alloc_offset "conv2d9_" [@global_workspace][?] align 16 : memref<401408xi8>
%b43 = usmp.alloc_offset "add3_" [@global_workspace][?] align 16 : memref<401408xi8>
%b44 = usmp.alloc_offset "relu8" [@global_workspace][?] align 16 : memref<401408xi8>
%b45 = usmp.alloc_offset "lv20" [@global_workspace][?] align 16 : memref<200704xi8>
%b46 = usmp.alloc_offset "conv2d10_" [@global_workspace][?] align 16 : memref<200704xi8>
%b47 = usmp.alloc_offset "relu9" [@global_workspace][?] align 16 : memref<200704xi8>
%b48 = usmp.alloc_offset "lv22" [@global_workspace][?] align 16 : memref<200704xi8>
%b49 = usmp.alloc_offset "conv2d11" [@global_workspace][?] align 16 : memref<200704xi8>
%b50 = usmp.alloc_offset "lv24" [@global_workspace][?] align 16 : memref<200704xi8>
%b51 = usmp.alloc_offset "conv2d12" [@global_workspace][?] align 16 : memref<200704xi8>
%b52 = usmp.alloc_offset "add4_" [@global_workspace][?] align 16 : memref<200704xi8>
%b53 = usmp.alloc_offset "relu10" [@global_workspace][?] align 16 : memref<200704xi8>
%b54 = usmp.alloc_offset "lv26" [@global_workspace][?] align 16 : memref<200704xi8>
%b55 = usmp.alloc_offset "conv2d13" [@global_workspace][?] align 16 : memref<200704xi8>
%b56 = usmp.alloc_offset "relu11" [@global_workspace][?] align 16 : memref<200704xi8>
%b57 = usmp.alloc_offset "lv28" [@global_workspace][?] align 16 : memref<200704xi8>
%b58 = usmp.alloc_offset "conv2d14" [@global_workspace][?] align 16 : memref<200704xi8>
%b59 = usmp.alloc_offset "add5_" [@global_workspace][?] align 16 : memref<200704xi8>
%b60 = usmp.alloc_offset "relu12" [@global_workspace][?] align 16 : memref<200704xi8>
%b61 = usmp.alloc_offset "lv30" [@global_workspace][?] align 16 : memref<100352xi8>
%b62 = usmp.alloc_offset "conv2d15" [@global_workspace][?] align 16 : memref<100352xi8>
%b63 = usmp.alloc_offset "relu13" [@global_workspace][?] align 16 : memref<100352xi8>
%b64 = usmp.alloc_offset "lv32" [@global_workspace][?] align 16 : memref<100352xi8>
%b65 = usmp.alloc_offset "conv2d16" [@global_workspace][?] align 16 : memref<100352xi8>
%b66 = usmp.alloc_offset "lv34" [@global_workspace][?] align 16 : memref<100352xi8>
%b67 = usmp.alloc_offset "conv2d17" [@global_workspace][?] align 16 : memref<100352xi8>
%b68 = usmp.alloc_offset "add6_" [@global_workspace][?] align 16 : memref<100352xi8>
%b69 = usmp.alloc_offset "relu14" [@global_workspace][?] align 16 : memref<100352xi8>
%b70 = usmp.alloc_offset "lv36" [@global_workspace][?] align 16 : memref<100352xi8>
%b71 = usmp.alloc_offset "conv2d18" [@global_workspace][?] align 16 : memref<100352xi8>
%b72 = usmp.alloc_offset "relu15" [@global_workspace][?] align 16 : memref<100352xi8>
%b73 = usmp.alloc_offset "lv38" [@global_workspace][?] align 16 : memref<100352xi8>
%b74 = usmp.alloc_offset "conv2d19" [@global_workspace][?] align 16 : memref<100352xi8>
%b75 = usmp.alloc_offset "add7_" [@global_workspace][?] align 16 : memref<100352xi8>
%b76 = usmp.alloc_offset "relu16" [@global_workspace][?] align 16 : memref<100352xi8>
%b77 = usmp.alloc_offset "sum_" [@global_workspace][?] align 16 : memref<2048xi8>
%b78 = usmp.alloc_offset "mul" [@global_workspace][?] align 16 : memref<2048xi8>
%b79 = usmp.alloc_offset "permute_dims" [@global_workspace][?] align 16 : memref<20480xi8>
%b80 = usmp.alloc_offset "matmul_" [@global_workspace][?] align 16 : memref<40xi8>
%b81 = usmp.alloc_offset "pad_temp2" [@global_workspace][?] align 16 : memref<3326976xi8>
usmp.liveness {
  "pad_temp" [75, 89)
  "pad_temp3" [126, 140) [160, 174) [202, 216) [236, 250)
  "pad_temp12" [693, 705)
  "pad_temp4" [278, 292)
  "pad_temp5" [312, 326) [379, 393) [413, 427)
  "pad_temp6" [339, 351)
  "pad_temp7" [455, 469)
  "pad_temp8" [489, 503) [556, 570) [590, 604)
  "pad_temp9" [516, 528)
  "pad_temp10" [632, 646)
  "pad_temp11" [666, 680) [733, 747) [767, 781)
  "lv" [79, 97)
  "conv2d_" [93, 104)
  "relu_" [100, 112)
  "max_pool2d_" [112, 190)
  "lv2" [130, 148)
  "conv2d1_" [144, 155)
  "relu1_" [151, 164)
  "lv4" [164, 182)
  "conv2d2_" [178, 190)
  "add_" [186, 197)
  "relu2_" [193, 266)
  "lv6" [206, 224)
  "conv2d3_" [220, 231)
  "relu3_" [227, 240)
  "lv8" [240, 258)
  "conv2d4_" [254, 266)
  "add1_" [262, 273)
  "relu4_" [269, 343)
  "lv10" [282, 300)
  "conv2d5_" [296, 307)
  "relu5" [303, 316)
  "lv12" [316, 334)
  "conv2d6_" [330, 367)
  "lv14" [343, 359)
  "conv2d7_" [355, 367)
  "add2_" [363, 374)
  "relu6" [370, 443)
  "lv16" [383, 401)
  "conv2d8_" [397, 408)
  "relu7" [404, 417)
  "lv18" [417, 435)
  "conv2d9_" [431, 443)
  "add3_" [439, 450)
  "relu8" [446, 520)
  "lv20" [459, 477)
  "conv2d10_" [473, 484)
  "relu9" [480, 493)
  "lv22" [493, 511)
  "conv2d11" [507, 544)
  "lv24" [520, 536)
  "conv2d12" [532, 544)
  "add4_" [540, 551)
  "relu10" [547, 620)
  "lv26" [560, 578)
  "conv2d13" [574, 585)
  "relu11" [581, 594)
  "lv28" [594, 612)
  "conv2d14" [608, 620)
  "add5_" [616, 627)
  "relu12" [623, 697)
  "lv30" [636, 654)
  "conv2d15" [650, 661)
  "relu13" [657, 670)
  "lv32" [670, 688)
  "conv2d16" [684, 721)
  "lv34" [697, 713)
  "conv2d17" [709, 721)
  "add6_" [717, 728)
  "relu14" [724, 797)
  "lv36" [737, 755)
  "conv2d18" [751, 762)
  "relu15" [758, 771)
  "lv38" [771, 789)
  "conv2d19" [785, 797)
  "add7_" [793, 804)
  "relu16" [800, 814)
  "sum_" [807, 819)
  "mul" [817, 835)
  "permute_dims" [822, 835)
  "matmul_" [829, 841)
  "pad_temp2" [108, 121)
}
