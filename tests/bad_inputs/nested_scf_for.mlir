// 600 nested scf.for: one diagnostic, exit status 1 (tests/test_bad_inputs.py).
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i0 = %c0 to %c1 step %c1 {
  scf.for %i1 = %c0 to %c1 step %c1 {
  scf.for %i2 = %c0 to %c1 step %c1 {
  scf.for %i3 = %c0 to %c1 step %c1 {
  scf.for %i4 = %c0 to %c1 step %c1 {
  scf.for %i5 = %c0 to %c1 step %c1 {
  scf.for %i6 = %c0 to %c1 step %c1 {
  scf.for %i7 = %c0 to %c1 step %c1 {
  scf.for %i8 = %c0 to %c1 step %c1 {
  scf.for %i9 = %c0 to %c1 step %c1 {
  scf.for %i10 = %c0 to %c1 step %c1 {
  scf.for %i11 = %c0 to %c1 step %c1 {
  scf.for %i12 = %c0 to %c1 step %c1 {
  scf.for %i13 = %c0 to %c1 step %c1 {
  scf.for %i14 = %c0 to %c1 step %c1 {
  scf.for %i15 = %c0 to %c1 step %c1 {
  scf.for %i16 = %c0 to %c1 step %c1 {
  scf.for %i17 = %c0 to %c1 step %c1 {
  scf.for %i18 = %c0 to %c1 step %c1 {
  scf.for %i19 = %c0 to %c1 step %c1 {
  scf.for %i20 = %c0 to %c1 step %c1 {
  scf.for %i21 = %c0 to %c1 step %c1 {
  scf.for %i22 = %c0 to %c1 step %c1 {
  scf.for %i23 = %c0 to %c1 step %c1 {
  scf.for %i24 = %c0 to %c1 step %c1 {
  scf.for %i25 = %c0 to %c1 step %c1 {
  scf.for %i26 = %c0 to %c1 step %c1 {
  scf.for %i27 = %c0 to %c1 step %c1 {
  scf.for %i28 = %c0 to %c1 step %c1 {
  scf.for %i29 = %c0 to %c1 step %c1 {
  scf.for %i30 = %c0 to %c1 step %c1 {
  scf.for %i31 = %c0 to %c1 step %c1 {
  scf.for %i32 = %c0 to %c1 step %c1 {
  scf.for %i33 = %c0 to %c1 step %c1 {
  scf.for %i34 = %c0 to %c1 step %c1 {
  scf.for %i35 = %c0 to %c1 step %c1 {
  scf.for %i36 = %c0 to %c1 step %c1 {
  scf.for %i37 = %c0 to %c1 step %c1 {
  scf.for %i38 = %c0 to %c1 step %c1 {
  scf.for %i39 = %c0 to %c1 step %c1 {
  scf.for %i40 = %c0 to %c1 step %c1 {
  scf.for %i41 = %c0 to %c1 step %c1 {
  scf.for %i42 = %c0 to %c1 step %c1 {
  scf.for %i43 = %c0 to %c1 step %c1 {
  scf.for %i44 = %c0 to %c1 step %c1 {
  scf.for %i45 = %c0 to %c1 step %c1 {
  scf.for %i46 = %c0 to %c1 step %c1 {
  scf.for %i47 = %c0 to %c1 step %c1 {
  scf.for %i48 = %c0 to %c1 step %c1 {
  scf.for %i49 = %c0 to %c1 step %c1 {
  scf.for %i50 = %c0 to %c1 step %c1 {
  scf.for %i51 = %c0 to %c1 step %c1 {
  scf.for %i52 = %c0 to %c1 step %c1 {
  scf.for %i53 = %c0 to %c1 step %c1 {
  scf.for %i54 = %c0 to %c1 step %c1 {
  scf.for %i55 = %c0 to %c1 step %c1 {
  scf.for %i56 = %c0 to %c1 step %c1 {
  scf.for %i57 = %c0 to %c1 step %c1 {
  scf.for %i58 = %c0 to %c1 step %c1 {
  scf.for %i59 = %c0 to %c1 step %c1 {
  scf.for %i60 = %c0 to %c1 step %c1 {
  scf.for %i61 = %c0 to %c1 step %c1 {
  scf.for %i62 = %c0 to %c1 step %c1 {
  scf.for %i63 = %c0 to %c1 step %c1 {
  scf.for %i64 = %c0 to %c1 step %c1 {
  scf.for %i65 = %c0 to %c1 step %c1 {
  scf.for %i66 = %c0 to %c1 step %c1 {
  scf.for %i67 = %c0 to %c1 step %c1 {
  scf.for %i68 = %c0 to %c1 step %c1 {
  scf.for %i69 = %c0 to %c1 step %c1 {
  scf.for %i70 = %c0 to %c1 step %c1 {
  scf.for %i71 = %c0 to %c1 step %c1 {
  scf.for %i72 = %c0 to %c1 step %c1 {
  scf.for %i73 = %c0 to %c1 step %c1 {
  scf.for %i74 = %c0 to %c1 step %c1 {
  scf.for %i75 = %c0 to %c1 step %c1 {
  scf.for %i76 = %c0 to %c1 step %c1 {
  scf.for %i77 = %c0 to %c1 step %c1 {
  scf.for %i78 = %c0 to %c1 step %c1 {
  scf.for %i79 = %c0 to %c1 step %c1 {
  scf.for %i80 = %c0 to %c1 step %c1 {
  scf.for %i81 = %c0 to %c1 step %c1 {
  scf.for %i82 = %c0 to %c1 step %c1 {
  scf.for %i83 = %c0 to %c1 step %c1 {
  scf.for %i84 = %c0 to %c1 step %c1 {
  scf.for %i85 = %c0 to %c1 step %c1 {
  scf.for %i86 = %c0 to %c1 step %c1 {
  scf.for %i87 = %c0 to %c1 step %c1 {
  scf.for %i88 = %c0 to %c1 step %c1 {
  scf.for %i89 = %c0 to %c1 step %c1 {
  scf.for %i90 = %c0 to %c1 step %c1 {
  scf.for %i91 = %c0 to %c1 step %c1 {
  scf.for %i92 = %c0 to %c1 step %c1 {
  scf.for %i93 = %c0 to %c1 step %c1 {
  scf.for %i94 = %c0 to %c1 step %c1 {
  scf.for %i95 = %c0 to %c1 step %c1 {
  scf.for %i96 = %c0 to %c1 step %c1 {
  scf.for %i97 = %c0 to %c1 step %c1 {
  scf.for %i98 = %c0 to %c1 step %c1 {
  scf.for %i99 = %c0 to %c1 step %c1 {
  scf.for %i100 = %c0 to %c1 step %c1 {
  scf.for %i101 = %c0 to %c1 step %c1 {
  scf.for %i102 = %c0 to %c1 step %c1 {
  scf.for %i103 = %c0 to %c1 step %c1 {
  scf.for %i104 = %c0 to %c1 step %c1 {
  scf.for %i105 = %c0 to %c1 step %c1 {
  scf.for %i106 = %c0 to %c1 step %c1 {
  scf.for %i107 = %c0 to %c1 step %c1 {
  scf.for %i108 = %c0 to %c1 step %c1 {
  scf.for %i109 = %c0 to %c1 step %c1 {
  scf.for %i110 = %c0 to %c1 step %c1 {
  scf.for %i111 = %c0 to %c1 step %c1 {
  scf.for %i112 = %c0 to %c1 step %c1 {
  scf.for %i113 = %c0 to %c1 step %c1 {
  scf.for %i114 = %c0 to %c1 step %c1 {
  scf.for %i115 = %c0 to %c1 step %c1 {
  scf.for %i116 = %c0 to %c1 step %c1 {
  scf.for %i117 = %c0 to %c1 step %c1 {
  scf.for %i118 = %c0 to %c1 step %c1 {
  scf.for %i119 = %c0 to %c1 step %c1 {
  scf.for %i120 = %c0 to %c1 step %c1 {
  scf.for %i121 = %c0 to %c1 step %c1 {
  scf.for %i122 = %c0 to %c1 step %c1 {
  scf.for %i123 = %c0 to %c1 step %c1 {
  scf.for %i124 = %c0 to %c1 step %c1 {
  scf.for %i125 = %c0 to %c1 step %c1 {
  scf.for %i126 = %c0 to %c1 step %c1 {
  scf.for %i127 = %c0 to %c1 step %c1 {
  scf.for %i128 = %c0 to %c1 step %c1 {
  scf.for %i129 = %c0 to %c1 step %c1 {
  scf.for %i130 = %c0 to %c1 step %c1 {
  scf.for %i131 = %c0 to %c1 step %c1 {
  scf.for %i132 = %c0 to %c1 step %c1 {
  scf.for %i133 = %c0 to %c1 step %c1 {
  scf.for %i134 = %c0 to %c1 step %c1 {
  scf.for %i135 = %c0 to %c1 step %c1 {
  scf.for %i136 = %c0 to %c1 step %c1 {
  scf.for %i137 = %c0 to %c1 step %c1 {
  scf.for %i138 = %c0 to %c1 step %c1 {
  scf.for %i139 = %c0 to %c1 step %c1 {
  scf.for %i140 = %c0 to %c1 step %c1 {
  scf.for %i141 = %c0 to %c1 step %c1 {
  scf.for %i142 = %c0 to %c1 step %c1 {
  scf.for %i143 = %c0 to %c1 step %c1 {
  scf.for %i144 = %c0 to %c1 step %c1 {
  scf.for %i145 = %c0 to %c1 step %c1 {
  scf.for %i146 = %c0 to %c1 step %c1 {
  scf.for %i147 = %c0 to %c1 step %c1 {
  scf.for %i148 = %c0 to %c1 step %c1 {
  scf.for %i149 = %c0 to %c1 step %c1 {
  scf.for %i150 = %c0 to %c1 step %c1 {
  scf.for %i151 = %c0 to %c1 step %c1 {
  scf.for %i152 = %c0 to %c1 step %c1 {
  scf.for %i153 = %c0 to %c1 step %c1 {
  scf.for %i154 = %c0 to %c1 step %c1 {
  scf.for %i155 = %c0 to %c1 step %c1 {
  scf.for %i156 = %c0 to %c1 step %c1 {
  scf.for %i157 = %c0 to %c1 step %c1 {
  scf.for %i158 = %c0 to %c1 step %c1 {
  scf.for %i159 = %c0 to %c1 step %c1 {
  scf.for %i160 = %c0 to %c1 step %c1 {
  scf.for %i161 = %c0 to %c1 step %c1 {
  scf.for %i162 = %c0 to %c1 step %c1 {
  scf.for %i163 = %c0 to %c1 step %c1 {
  scf.for %i164 = %c0 to %c1 step %c1 {
  scf.for %i165 = %c0 to %c1 step %c1 {
  scf.for %i166 = %c0 to %c1 step %c1 {
  scf.for %i167 = %c0 to %c1 step %c1 {
  scf.for %i168 = %c0 to %c1 step %c1 {
  scf.for %i169 = %c0 to %c1 step %c1 {
  scf.for %i170 = %c0 to %c1 step %c1 {
  scf.for %i171 = %c0 to %c1 step %c1 {
  scf.for %i172 = %c0 to %c1 step %c1 {
  scf.for %i173 = %c0 to %c1 step %c1 {
  scf.for %i174 = %c0 to %c1 step %c1 {
  scf.for %i175 = %c0 to %c1 step %c1 {
  scf.for %i176 = %c0 to %c1 step %c1 {
  scf.for %i177 = %c0 to %c1 step %c1 {
  scf.for %i178 = %c0 to %c1 step %c1 {
  scf.for %i179 = %c0 to %c1 step %c1 {
  scf.for %i180 = %c0 to %c1 step %c1 {
  scf.for %i181 = %c0 to %c1 step %c1 {
  scf.for %i182 = %c0 to %c1 step %c1 {
  scf.for %i183 = %c0 to %c1 step %c1 {
  scf.for %i184 = %c0 to %c1 step %c1 {
  scf.for %i185 = %c0 to %c1 step %c1 {
  scf.for %i186 = %c0 to %c1 step %c1 {
  scf.for %i187 = %c0 to %c1 step %c1 {
  scf.for %i188 = %c0 to %c1 step %c1 {
  scf.for %i189 = %c0 to %c1 step %c1 {
  scf.for %i190 = %c0 to %c1 step %c1 {
  scf.for %i191 = %c0 to %c1 step %c1 {
  scf.for %i192 = %c0 to %c1 step %c1 {
  scf.for %i193 = %c0 to %c1 step %c1 {
  scf.for %i194 = %c0 to %c1 step %c1 {
  scf.for %i195 = %c0 to %c1 step %c1 {
  scf.for %i196 = %c0 to %c1 step %c1 {
  scf.for %i197 = %c0 to %c1 step %c1 {
  scf.for %i198 = %c0 to %c1 step %c1 {
  scf.for %i199 = %c0 to %c1 step %c1 {
  scf.for %i200 = %c0 to %c1 step %c1 {
  scf.for %i201 = %c0 to %c1 step %c1 {
  scf.for %i202 = %c0 to %c1 step %c1 {
  scf.for %i203 = %c0 to %c1 step %c1 {
  scf.for %i204 = %c0 to %c1 step %c1 {
  scf.for %i205 = %c0 to %c1 step %c1 {
  scf.for %i206 = %c0 to %c1 step %c1 {
  scf.for %i207 = %c0 to %c1 step %c1 {
  scf.for %i208 = %c0 to %c1 step %c1 {
  scf.for %i209 = %c0 to %c1 step %c1 {
  scf.for %i210 = %c0 to %c1 step %c1 {
  scf.for %i211 = %c0 to %c1 step %c1 {
  scf.for %i212 = %c0 to %c1 step %c1 {
  scf.for %i213 = %c0 to %c1 step %c1 {
  scf.for %i214 = %c0 to %c1 step %c1 {
  scf.for %i215 = %c0 to %c1 step %c1 {
  scf.for %i216 = %c0 to %c1 step %c1 {
  scf.for %i217 = %c0 to %c1 step %c1 {
  scf.for %i218 = %c0 to %c1 step %c1 {
  scf.for %i219 = %c0 to %c1 step %c1 {
  scf.for %i220 = %c0 to %c1 step %c1 {
  scf.for %i221 = %c0 to %c1 step %c1 {
  scf.for %i222 = %c0 to %c1 step %c1 {
  scf.for %i223 = %c0 to %c1 step %c1 {
  scf.for %i224 = %c0 to %c1 step %c1 {
  scf.for %i225 = %c0 to %c1 step %c1 {
  scf.for %i226 = %c0 to %c1 step %c1 {
  scf.for %i227 = %c0 to %c1 step %c1 {
  scf.for %i228 = %c0 to %c1 step %c1 {
  scf.for %i229 = %c0 to %c1 step %c1 {
  scf.for %i230 = %c0 to %c1 step %c1 {
  scf.for %i231 = %c0 to %c1 step %c1 {
  scf.for %i232 = %c0 to %c1 step %c1 {
  scf.for %i233 = %c0 to %c1 step %c1 {
  scf.for %i234 = %c0 to %c1 step %c1 {
  scf.for %i235 = %c0 to %c1 step %c1 {
  scf.for %i236 = %c0 to %c1 step %c1 {
  scf.for %i237 = %c0 to %c1 step %c1 {
  scf.for %i238 = %c0 to %c1 step %c1 {
  scf.for %i239 = %c0 to %c1 step %c1 {
  scf.for %i240 = %c0 to %c1 step %c1 {
  scf.for %i241 = %c0 to %c1 step %c1 {
  scf.for %i242 = %c0 to %c1 step %c1 {
  scf.for %i243 = %c0 to %c1 step %c1 {
  scf.for %i244 = %c0 to %c1 step %c1 {
  scf.for %i245 = %c0 to %c1 step %c1 {
  scf.for %i246 = %c0 to %c1 step %c1 {
  scf.for %i247 = %c0 to %c1 step %c1 {
  scf.for %i248 = %c0 to %c1 step %c1 {
  scf.for %i249 = %c0 to %c1 step %c1 {
  scf.for %i250 = %c0 to %c1 step %c1 {
  scf.for %i251 = %c0 to %c1 step %c1 {
  scf.for %i252 = %c0 to %c1 step %c1 {
  scf.for %i253 = %c0 to %c1 step %c1 {
  scf.for %i254 = %c0 to %c1 step %c1 {
  scf.for %i255 = %c0 to %c1 step %c1 {
  scf.for %i256 = %c0 to %c1 step %c1 {
  scf.for %i257 = %c0 to %c1 step %c1 {
  scf.for %i258 = %c0 to %c1 step %c1 {
  scf.for %i259 = %c0 to %c1 step %c1 {
  scf.for %i260 = %c0 to %c1 step %c1 {
  scf.for %i261 = %c0 to %c1 step %c1 {
  scf.for %i262 = %c0 to %c1 step %c1 {
  scf.for %i263 = %c0 to %c1 step %c1 {
  scf.for %i264 = %c0 to %c1 step %c1 {
  scf.for %i265 = %c0 to %c1 step %c1 {
  scf.for %i266 = %c0 to %c1 step %c1 {
  scf.for %i267 = %c0 to %c1 step %c1 {
  scf.for %i268 = %c0 to %c1 step %c1 {
  scf.for %i269 = %c0 to %c1 step %c1 {
  scf.for %i270 = %c0 to %c1 step %c1 {
  scf.for %i271 = %c0 to %c1 step %c1 {
  scf.for %i272 = %c0 to %c1 step %c1 {
  scf.for %i273 = %c0 to %c1 step %c1 {
  scf.for %i274 = %c0 to %c1 step %c1 {
  scf.for %i275 = %c0 to %c1 step %c1 {
  scf.for %i276 = %c0 to %c1 step %c1 {
  scf.for %i277 = %c0 to %c1 step %c1 {
  scf.for %i278 = %c0 to %c1 step %c1 {
  scf.for %i279 = %c0 to %c1 step %c1 {
  scf.for %i280 = %c0 to %c1 step %c1 {
  scf.for %i281 = %c0 to %c1 step %c1 {
  scf.for %i282 = %c0 to %c1 step %c1 {
  scf.for %i283 = %c0 to %c1 step %c1 {
  scf.for %i284 = %c0 to %c1 step %c1 {
  scf.for %i285 = %c0 to %c1 step %c1 {
  scf.for %i286 = %c0 to %c1 step %c1 {
  scf.for %i287 = %c0 to %c1 step %c1 {
  scf.for %i288 = %c0 to %c1 step %c1 {
  scf.for %i289 = %c0 to %c1 step %c1 {
  scf.for %i290 = %c0 to %c1 step %c1 {
  scf.for %i291 = %c0 to %c1 step %c1 {
  scf.for %i292 = %c0 to %c1 step %c1 {
  scf.for %i293 = %c0 to %c1 step %c1 {
  scf.for %i294 = %c0 to %c1 step %c1 {
  scf.for %i295 = %c0 to %c1 step %c1 {
  scf.for %i296 = %c0 to %c1 step %c1 {
  scf.for %i297 = %c0 to %c1 step %c1 {
  scf.for %i298 = %c0 to %c1 step %c1 {
  scf.for %i299 = %c0 to %c1 step %c1 {
  scf.for %i300 = %c0 to %c1 step %c1 {
  scf.for %i301 = %c0 to %c1 step %c1 {
  scf.for %i302 = %c0 to %c1 step %c1 {
  scf.for %i303 = %c0 to %c1 step %c1 {
  scf.for %i304 = %c0 to %c1 step %c1 {
  scf.for %i305 = %c0 to %c1 step %c1 {
  scf.for %i306 = %c0 to %c1 step %c1 {
  scf.for %i307 = %c0 to %c1 step %c1 {
  scf.for %i308 = %c0 to %c1 step %c1 {
  scf.for %i309 = %c0 to %c1 step %c1 {
  scf.for %i310 = %c0 to %c1 step %c1 {
  scf.for %i311 = %c0 to %c1 step %c1 {
  scf.for %i312 = %c0 to %c1 step %c1 {
  scf.for %i313 = %c0 to %c1 step %c1 {
  scf.for %i314 = %c0 to %c1 step %c1 {
  scf.for %i315 = %c0 to %c1 step %c1 {
  scf.for %i316 = %c0 to %c1 step %c1 {
  scf.for %i317 = %c0 to %c1 step %c1 {
  scf.for %i318 = %c0 to %c1 step %c1 {
  scf.for %i319 = %c0 to %c1 step %c1 {
  scf.for %i320 = %c0 to %c1 step %c1 {
  scf.for %i321 = %c0 to %c1 step %c1 {
  scf.for %i322 = %c0 to %c1 step %c1 {
  scf.for %i323 = %c0 to %c1 step %c1 {
  scf.for %i324 = %c0 to %c1 step %c1 {
  scf.for %i325 = %c0 to %c1 step %c1 {
  scf.for %i326 = %c0 to %c1 step %c1 {
  scf.for %i327 = %c0 to %c1 step %c1 {
  scf.for %i328 = %c0 to %c1 step %c1 {
  scf.for %i329 = %c0 to %c1 step %c1 {
  scf.for %i330 = %c0 to %c1 step %c1 {
  scf.for %i331 = %c0 to %c1 step %c1 {
  scf.for %i332 = %c0 to %c1 step %c1 {
  scf.for %i333 = %c0 to %c1 step %c1 {
  scf.for %i334 = %c0 to %c1 step %c1 {
  scf.for %i335 = %c0 to %c1 step %c1 {
  scf.for %i336 = %c0 to %c1 step %c1 {
  scf.for %i337 = %c0 to %c1 step %c1 {
  scf.for %i338 = %c0 to %c1 step %c1 {
  scf.for %i339 = %c0 to %c1 step %c1 {
  scf.for %i340 = %c0 to %c1 step %c1 {
  scf.for %i341 = %c0 to %c1 step %c1 {
  scf.for %i342 = %c0 to %c1 step %c1 {
  scf.for %i343 = %c0 to %c1 step %c1 {
  scf.for %i344 = %c0 to %c1 step %c1 {
  scf.for %i345 = %c0 to %c1 step %c1 {
  scf.for %i346 = %c0 to %c1 step %c1 {
  scf.for %i347 = %c0 to %c1 step %c1 {
  scf.for %i348 = %c0 to %c1 step %c1 {
  scf.for %i349 = %c0 to %c1 step %c1 {
  scf.for %i350 = %c0 to %c1 step %c1 {
  scf.for %i351 = %c0 to %c1 step %c1 {
  scf.for %i352 = %c0 to %c1 step %c1 {
  scf.for %i353 = %c0 to %c1 step %c1 {
  scf.for %i354 = %c0 to %c1 step %c1 {
  scf.for %i355 = %c0 to %c1 step %c1 {
  scf.for %i356 = %c0 to %c1 step %c1 {
  scf.for %i357 = %c0 to %c1 step %c1 {
  scf.for %i358 = %c0 to %c1 step %c1 {
  scf.for %i359 = %c0 to %c1 step %c1 {
  scf.for %i360 = %c0 to %c1 step %c1 {
  scf.for %i361 = %c0 to %c1 step %c1 {
  scf.for %i362 = %c0 to %c1 step %c1 {
  scf.for %i363 = %c0 to %c1 step %c1 {
  scf.for %i364 = %c0 to %c1 step %c1 {
  scf.for %i365 = %c0 to %c1 step %c1 {
  scf.for %i366 = %c0 to %c1 step %c1 {
  scf.for %i367 = %c0 to %c1 step %c1 {
  scf.for %i368 = %c0 to %c1 step %c1 {
  scf.for %i369 = %c0 to %c1 step %c1 {
  scf.for %i370 = %c0 to %c1 step %c1 {
  scf.for %i371 = %c0 to %c1 step %c1 {
  scf.for %i372 = %c0 to %c1 step %c1 {
  scf.for %i373 = %c0 to %c1 step %c1 {
  scf.for %i374 = %c0 to %c1 step %c1 {
  scf.for %i375 = %c0 to %c1 step %c1 {
  scf.for %i376 = %c0 to %c1 step %c1 {
  scf.for %i377 = %c0 to %c1 step %c1 {
  scf.for %i378 = %c0 to %c1 step %c1 {
  scf.for %i379 = %c0 to %c1 step %c1 {
  scf.for %i380 = %c0 to %c1 step %c1 {
  scf.for %i381 = %c0 to %c1 step %c1 {
  scf.for %i382 = %c0 to %c1 step %c1 {
  scf.for %i383 = %c0 to %c1 step %c1 {
  scf.for %i384 = %c0 to %c1 step %c1 {
  scf.for %i385 = %c0 to %c1 step %c1 {
  scf.for %i386 = %c0 to %c1 step %c1 {
  scf.for %i387 = %c0 to %c1 step %c1 {
  scf.for %i388 = %c0 to %c1 step %c1 {
  scf.for %i389 = %c0 to %c1 step %c1 {
  scf.for %i390 = %c0 to %c1 step %c1 {
  scf.for %i391 = %c0 to %c1 step %c1 {
  scf.for %i392 = %c0 to %c1 step %c1 {
  scf.for %i393 = %c0 to %c1 step %c1 {
  scf.for %i394 = %c0 to %c1 step %c1 {
  scf.for %i395 = %c0 to %c1 step %c1 {
  scf.for %i396 = %c0 to %c1 step %c1 {
  scf.for %i397 = %c0 to %c1 step %c1 {
  scf.for %i398 = %c0 to %c1 step %c1 {
  scf.for %i399 = %c0 to %c1 step %c1 {
  scf.for %i400 = %c0 to %c1 step %c1 {
  scf.for %i401 = %c0 to %c1 step %c1 {
  scf.for %i402 = %c0 to %c1 step %c1 {
  scf.for %i403 = %c0 to %c1 step %c1 {
  scf.for %i404 = %c0 to %c1 step %c1 {
  scf.for %i405 = %c0 to %c1 step %c1 {
  scf.for %i406 = %c0 to %c1 step %c1 {
  scf.for %i407 = %c0 to %c1 step %c1 {
  scf.for %i408 = %c0 to %c1 step %c1 {
  scf.for %i409 = %c0 to %c1 step %c1 {
  scf.for %i410 = %c0 to %c1 step %c1 {
  scf.for %i411 = %c0 to %c1 step %c1 {
  scf.for %i412 = %c0 to %c1 step %c1 {
  scf.for %i413 = %c0 to %c1 step %c1 {
  scf.for %i414 = %c0 to %c1 step %c1 {
  scf.for %i415 = %c0 to %c1 step %c1 {
  scf.for %i416 = %c0 to %c1 step %c1 {
  scf.for %i417 = %c0 to %c1 step %c1 {
  scf.for %i418 = %c0 to %c1 step %c1 {
  scf.for %i419 = %c0 to %c1 step %c1 {
  scf.for %i420 = %c0 to %c1 step %c1 {
  scf.for %i421 = %c0 to %c1 step %c1 {
  scf.for %i422 = %c0 to %c1 step %c1 {
  scf.for %i423 = %c0 to %c1 step %c1 {
  scf.for %i424 = %c0 to %c1 step %c1 {
  scf.for %i425 = %c0 to %c1 step %c1 {
  scf.for %i426 = %c0 to %c1 step %c1 {
  scf.for %i427 = %c0 to %c1 step %c1 {
  scf.for %i428 = %c0 to %c1 step %c1 {
  scf.for %i429 = %c0 to %c1 step %c1 {
  scf.for %i430 = %c0 to %c1 step %c1 {
  scf.for %i431 = %c0 to %c1 step %c1 {
  scf.for %i432 = %c0 to %c1 step %c1 {
  scf.for %i433 = %c0 to %c1 step %c1 {
  scf.for %i434 = %c0 to %c1 step %c1 {
  scf.for %i435 = %c0 to %c1 step %c1 {
  scf.for %i436 = %c0 to %c1 step %c1 {
  scf.for %i437 = %c0 to %c1 step %c1 {
  scf.for %i438 = %c0 to %c1 step %c1 {
  scf.for %i439 = %c0 to %c1 step %c1 {
  scf.for %i440 = %c0 to %c1 step %c1 {
  scf.for %i441 = %c0 to %c1 step %c1 {
  scf.for %i442 = %c0 to %c1 step %c1 {
  scf.for %i443 = %c0 to %c1 step %c1 {
  scf.for %i444 = %c0 to %c1 step %c1 {
  scf.for %i445 = %c0 to %c1 step %c1 {
  scf.for %i446 = %c0 to %c1 step %c1 {
  scf.for %i447 = %c0 to %c1 step %c1 {
  scf.for %i448 = %c0 to %c1 step %c1 {
  scf.for %i449 = %c0 to %c1 step %c1 {
  scf.for %i450 = %c0 to %c1 step %c1 {
  scf.for %i451 = %c0 to %c1 step %c1 {
  scf.for %i452 = %c0 to %c1 step %c1 {
  scf.for %i453 = %c0 to %c1 step %c1 {
  scf.for %i454 = %c0 to %c1 step %c1 {
  scf.for %i455 = %c0 to %c1 step %c1 {
  scf.for %i456 = %c0 to %c1 step %c1 {
  scf.for %i457 = %c0 to %c1 step %c1 {
  scf.for %i458 = %c0 to %c1 step %c1 {
  scf.for %i459 = %c0 to %c1 step %c1 {
  scf.for %i460 = %c0 to %c1 step %c1 {
  scf.for %i461 = %c0 to %c1 step %c1 {
  scf.for %i462 = %c0 to %c1 step %c1 {
  scf.for %i463 = %c0 to %c1 step %c1 {
  scf.for %i464 = %c0 to %c1 step %c1 {
  scf.for %i465 = %c0 to %c1 step %c1 {
  scf.for %i466 = %c0 to %c1 step %c1 {
  scf.for %i467 = %c0 to %c1 step %c1 {
  scf.for %i468 = %c0 to %c1 step %c1 {
  scf.for %i469 = %c0 to %c1 step %c1 {
  scf.for %i470 = %c0 to %c1 step %c1 {
  scf.for %i471 = %c0 to %c1 step %c1 {
  scf.for %i472 = %c0 to %c1 step %c1 {
  scf.for %i473 = %c0 to %c1 step %c1 {
  scf.for %i474 = %c0 to %c1 step %c1 {
  scf.for %i475 = %c0 to %c1 step %c1 {
  scf.for %i476 = %c0 to %c1 step %c1 {
  scf.for %i477 = %c0 to %c1 step %c1 {
  scf.for %i478 = %c0 to %c1 step %c1 {
  scf.for %i479 = %c0 to %c1 step %c1 {
  scf.for %i480 = %c0 to %c1 step %c1 {
  scf.for %i481 = %c0 to %c1 step %c1 {
  scf.for %i482 = %c0 to %c1 step %c1 {
  scf.for %i483 = %c0 to %c1 step %c1 {
  scf.for %i484 = %c0 to %c1 step %c1 {
  scf.for %i485 = %c0 to %c1 step %c1 {
  scf.for %i486 = %c0 to %c1 step %c1 {
  scf.for %i487 = %c0 to %c1 step %c1 {
  scf.for %i488 = %c0 to %c1 step %c1 {
  scf.for %i489 = %c0 to %c1 step %c1 {
  scf.for %i490 = %c0 to %c1 step %c1 {
  scf.for %i491 = %c0 to %c1 step %c1 {
  scf.for %i492 = %c0 to %c1 step %c1 {
  scf.for %i493 = %c0 to %c1 step %c1 {
  scf.for %i494 = %c0 to %c1 step %c1 {
  scf.for %i495 = %c0 to %c1 step %c1 {
  scf.for %i496 = %c0 to %c1 step %c1 {
  scf.for %i497 = %c0 to %c1 step %c1 {
  scf.for %i498 = %c0 to %c1 step %c1 {
  scf.for %i499 = %c0 to %c1 step %c1 {
  scf.for %i500 = %c0 to %c1 step %c1 {
  scf.for %i501 = %c0 to %c1 step %c1 {
  scf.for %i502 = %c0 to %c1 step %c1 {
  scf.for %i503 = %c0 to %c1 step %c1 {
  scf.for %i504 = %c0 to %c1 step %c1 {
  scf.for %i505 = %c0 to %c1 step %c1 {
  scf.for %i506 = %c0 to %c1 step %c1 {
  scf.for %i507 = %c0 to %c1 step %c1 {
  scf.for %i508 = %c0 to %c1 step %c1 {
  scf.for %i509 = %c0 to %c1 step %c1 {
  scf.for %i510 = %c0 to %c1 step %c1 {
  scf.for %i511 = %c0 to %c1 step %c1 {
  scf.for %i512 = %c0 to %c1 step %c1 {
  scf.for %i513 = %c0 to %c1 step %c1 {
  scf.for %i514 = %c0 to %c1 step %c1 {
  scf.for %i515 = %c0 to %c1 step %c1 {
  scf.for %i516 = %c0 to %c1 step %c1 {
  scf.for %i517 = %c0 to %c1 step %c1 {
  scf.for %i518 = %c0 to %c1 step %c1 {
  scf.for %i519 = %c0 to %c1 step %c1 {
  scf.for %i520 = %c0 to %c1 step %c1 {
  scf.for %i521 = %c0 to %c1 step %c1 {
  scf.for %i522 = %c0 to %c1 step %c1 {
  scf.for %i523 = %c0 to %c1 step %c1 {
  scf.for %i524 = %c0 to %c1 step %c1 {
  scf.for %i525 = %c0 to %c1 step %c1 {
  scf.for %i526 = %c0 to %c1 step %c1 {
  scf.for %i527 = %c0 to %c1 step %c1 {
  scf.for %i528 = %c0 to %c1 step %c1 {
  scf.for %i529 = %c0 to %c1 step %c1 {
  scf.for %i530 = %c0 to %c1 step %c1 {
  scf.for %i531 = %c0 to %c1 step %c1 {
  scf.for %i532 = %c0 to %c1 step %c1 {
  scf.for %i533 = %c0 to %c1 step %c1 {
  scf.for %i534 = %c0 to %c1 step %c1 {
  scf.for %i535 = %c0 to %c1 step %c1 {
  scf.for %i536 = %c0 to %c1 step %c1 {
  scf.for %i537 = %c0 to %c1 step %c1 {
  scf.for %i538 = %c0 to %c1 step %c1 {
  scf.for %i539 = %c0 to %c1 step %c1 {
  scf.for %i540 = %c0 to %c1 step %c1 {
  scf.for %i541 = %c0 to %c1 step %c1 {
  scf.for %i542 = %c0 to %c1 step %c1 {
  scf.for %i543 = %c0 to %c1 step %c1 {
  scf.for %i544 = %c0 to %c1 step %c1 {
  scf.for %i545 = %c0 to %c1 step %c1 {
  scf.for %i546 = %c0 to %c1 step %c1 {
  scf.for %i547 = %c0 to %c1 step %c1 {
  scf.for %i548 = %c0 to %c1 step %c1 {
  scf.for %i549 = %c0 to %c1 step %c1 {
  scf.for %i550 = %c0 to %c1 step %c1 {
  scf.for %i551 = %c0 to %c1 step %c1 {
  scf.for %i552 = %c0 to %c1 step %c1 {
  scf.for %i553 = %c0 to %c1 step %c1 {
  scf.for %i554 = %c0 to %c1 step %c1 {
  scf.for %i555 = %c0 to %c1 step %c1 {
  scf.for %i556 = %c0 to %c1 step %c1 {
  scf.for %i557 = %c0 to %c1 step %c1 {
  scf.for %i558 = %c0 to %c1 step %c1 {
  scf.for %i559 = %c0 to %c1 step %c1 {
  scf.for %i560 = %c0 to %c1 step %c1 {
  scf.for %i561 = %c0 to %c1 step %c1 {
  scf.for %i562 = %c0 to %c1 step %c1 {
  scf.for %i563 = %c0 to %c1 step %c1 {
  scf.for %i564 = %c0 to %c1 step %c1 {
  scf.for %i565 = %c0 to %c1 step %c1 {
  scf.for %i566 = %c0 to %c1 step %c1 {
  scf.for %i567 = %c0 to %c1 step %c1 {
  scf.for %i568 = %c0 to %c1 step %c1 {
  scf.for %i569 = %c0 to %c1 step %c1 {
  scf.for %i570 = %c0 to %c1 step %c1 {
  scf.for %i571 = %c0 to %c1 step %c1 {
  scf.for %i572 = %c0 to %c1 step %c1 {
  scf.for %i573 = %c0 to %c1 step %c1 {
  scf.for %i574 = %c0 to %c1 step %c1 {
  scf.for %i575 = %c0 to %c1 step %c1 {
  scf.for %i576 = %c0 to %c1 step %c1 {
  scf.for %i577 = %c0 to %c1 step %c1 {
  scf.for %i578 = %c0 to %c1 step %c1 {
  scf.for %i579 = %c0 to %c1 step %c1 {
  scf.for %i580 = %c0 to %c1 step %c1 {
  scf.for %i581 = %c0 to %c1 step %c1 {
  scf.for %i582 = %c0 to %c1 step %c1 {
  scf.for %i583 = %c0 to %c1 step %c1 {
  scf.for %i584 = %c0 to %c1 step %c1 {
  scf.for %i585 = %c0 to %c1 step %c1 {
  scf.for %i586 = %c0 to %c1 step %c1 {
  scf.for %i587 = %c0 to %c1 step %c1 {
  scf.for %i588 = %c0 to %c1 step %c1 {
  scf.for %i589 = %c0 to %c1 step %c1 {
  scf.for %i590 = %c0 to %c1 step %c1 {
  scf.for %i591 = %c0 to %c1 step %c1 {
  scf.for %i592 = %c0 to %c1 step %c1 {
  scf.for %i593 = %c0 to %c1 step %c1 {
  scf.for %i594 = %c0 to %c1 step %c1 {
  scf.for %i595 = %c0 to %c1 step %c1 {
  scf.for %i596 = %c0 to %c1 step %c1 {
  scf.for %i597 = %c0 to %c1 step %c1 {
  scf.for %i598 = %c0 to %c1 step %c1 {
  scf.for %i599 = %c0 to %c1 step %c1 {
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  func.return
}
