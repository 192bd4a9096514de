# d6-roll: damage on the three charts with scale and armor, every chart,
# weapon ranges, lightsaber and martial arts actions.
run d6-roll damage 5D --resist 2D+1 --seed 7
run d6-roll damage 5D --resist 2D+1 --seed 7 --json
run d6-roll damage 4D --resist 2D --scale character:speeder --seed 3
run d6-roll damage 4D --resist 2D --scale speeder:character --seed 3
run d6-roll damage 5D --resist 3D --armor heavy --seed 11
run d6-roll damage 5D --resist 3D --armor light --seed 11
run d6-roll damage 9D --resist 2D --chart starship --sub-roll 3 --seed 4
run d6-roll damage 9D --resist 2D --chart vehicle --seed 4
run d6-roll damage 6D --resist 4D --chart starship --scale starfighter:capital --seed 1 --json
run d6-roll damage 5D
run d6-roll damage 5D --resist 1D --armor heavy
run d6-roll damage 5D --resist 2D --chart boat
run d6-roll damage 5D --resist 2D --scale tiny:huge
run d6-roll damage 5D --resist 2D --chart starship --armor light
run d6-roll damage 5D --resist 2D --sub-roll 7
run d6-roll table
for t in difficulty damage recovery starship vehicle scale weapons lightsaber martial disarm; do
	run d6-roll table $t
done
run d6-roll table disarm --json
run d6-roll table scale --csv
run d6-roll table nothing
run d6-roll weapon blaster-pistol --range 25
run d6-roll weapon 'Blaster Pistol' --range 2 --json
run d6-roll weapon blaster-pistol --range 121
run d6-roll weapon capital-turbolaser --range 40000
run d6-roll weapon submachinegun --range 5
run d6-roll weapon lightbow --range 5
run d6-roll weapon blaster-pistol --range far
run d6-roll weapon blaster-pistol
run d6-roll saber quick-strike --skill 6D --damage 5D --seed 4
run d6-roll saber strong-strike --skill 6D --damage 5D --seed 4
run d6-roll saber 'beserk strike' --skill 9D --damage 5D --seed 2
run d6-roll saber feint --skill 5D --opposed 4D --seed 6
run d6-roll saber disarm --skill 9D --seed 12
run d6-roll saber disarm --skill 9D --strength 6D --vs-strength 3D --seed 12
run d6-roll saber lock --skill 9D --strength 4D --vs-strength 4D --seed 1
run d6-roll saber size-up --skill 4D --seed 1
run d6-roll saber movement --skill 4D
run d6-roll saber fly --skill 4D
run d6-roll saber strike
run d6-roll saber strike --skill 4D --json
run d6-roll martial kick --skill 5D --strength 3D --seed 2
run d6-roll martial flip --skill 5D --seed 2
run d6-roll martial spinning-kick --skill 4D --seed 5
run d6-roll martial weapon-block --skill 5D --opposed 4D+2 --seed 9
